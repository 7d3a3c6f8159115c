import { describe, expect, it, vi } from 'vitest';
import { createListeners } from './index';

describe('createListeners', () => {
  it('calls every listener, isolating one that throws', () => {
    const listeners = createListeners<number>();
    const seen: number[] = [];
    listeners.add(() => {
      throw new Error('a broken listener');
    });
    listeners.add((value) => seen.push(value));
    expect(() => listeners.emit(7)).not.toThrow();
    expect(seen).toEqual([7]);
  });

  it('stops a listener, even one that stops another while the set is emitting', () => {
    const listeners = createListeners();
    const later = vi.fn();
    let stopLater = () => {};
    const stopFirst = listeners.add(() => stopLater());
    stopLater = listeners.add(later);
    // Emitting works on a copy: the listener stopped during this emit still runs this once.
    listeners.emit();
    listeners.emit();
    expect(later).toHaveBeenCalledTimes(1);
    stopFirst();
  });
});
