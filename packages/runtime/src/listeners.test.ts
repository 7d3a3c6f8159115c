import { describe, expect, it, vi } from 'vitest';
import { createListeners } from './index';

describe('createListeners', () => {
  it('calls every listener, isolating one that throws', () => {
    const listeners = createListeners<number>(() => {});
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

describe('createListeners reporting', () => {
  it('hands what a listener threw to report, and still calls the next listener', () => {
    const reported: unknown[] = [];
    const listeners = createListeners<number>((error) => reported.push(error));
    const failure = new Error('a broken listener');
    const seen: number[] = [];
    listeners.add(() => {
      throw failure;
    });
    listeners.add((value) => seen.push(value));
    listeners.emit(1);
    expect(seen).toEqual([1]);
    expect(reported).toEqual([failure]);
  });

  it('a reporter that throws stops neither the next listener nor the caller', () => {
    const listeners = createListeners<number>(() => {
      throw new Error('a broken reporter');
    });
    const seen: number[] = [];
    listeners.add(() => {
      throw new Error('a broken listener');
    });
    listeners.add((value) => seen.push(value));
    expect(() => listeners.emit(2)).not.toThrow();
    expect(seen).toEqual([2]);
  });

  it('without a reporter, the error goes to the console where there is no reportError (Node)', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const listeners = createListeners();
      const failure = new Error('unreported?');
      listeners.add(() => {
        throw failure;
      });
      listeners.emit();
      expect(spy).toHaveBeenCalledWith(failure);
    } finally {
      spy.mockRestore();
    }
  });

  it('the same function added twice is two subscriptions, each stopped on its own', () => {
    const listeners = createListeners();
    const listener = vi.fn();
    const stopFirst = listeners.add(listener);
    listeners.add(listener);
    listeners.emit();
    expect(listener).toHaveBeenCalledTimes(2);
    stopFirst();
    listeners.emit();
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
