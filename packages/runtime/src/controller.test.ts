import { describe, expect, it } from 'vitest';
import { createController, isAborted, linkedController } from './index';

describe('linkedController', () => {
  it('aborts with the reason of whichever parent aborts first', () => {
    const first = new AbortController();
    const second = new AbortController();
    const linked = linkedController(first.signal, undefined, second.signal);
    expect(isAborted(linked.signal)).toBe(false);
    second.abort('second');
    first.abort('first');
    expect(linked.signal.reason).toBe('second');
  });

  it('starts aborted when a parent already is', () => {
    const parent = new AbortController();
    parent.abort('early');
    const linked = linkedController(undefined, parent.signal);
    expect(isAborted(linked.signal)).toBe(true);
    expect(linked.signal.reason).toBe('early');
  });

  it('is unhooked from its parents by dispose', () => {
    const parent = new AbortController();
    const linked = linkedController(parent.signal);
    linked.dispose();
    parent.abort('late');
    expect(isAborted(linked.signal)).toBe(false);
  });

  it('createController makes a real, independent AbortController', () => {
    const controller = createController();
    expect(controller).toBeInstanceOf(AbortController);
    expect(createController()).not.toBe(controller);
    expect(isAborted(undefined)).toBe(false);
  });
});
