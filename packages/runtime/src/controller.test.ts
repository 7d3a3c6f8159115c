import { describe, expect, it } from 'vitest';
import {
  createController,
  createQuietController,
  hostSignal,
  isAborted,
  linkedController,
} from './index';

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

describe('createQuietController', () => {
  it('tells its listeners once, in order, with the reason, and forgets removed ones', () => {
    const quiet = createQuietController();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    quiet.signal.addEventListener('abort', () =>
      heard.push(`first ${String(quiet.signal.reason)}`),
    );
    quiet.signal.addEventListener('abort', removed);
    quiet.signal.addEventListener('abort', () => heard.push('second'));
    quiet.signal.removeEventListener('abort', removed);
    quiet.abort('why');
    quiet.abort('again');
    expect(heard).toEqual(['first why', 'second']);
    expect(isAborted(quiet.signal)).toBe(true);
    expect(quiet.signal.reason).toBe('why');
  });

  it('is no AbortSignal itself; hostSignal gives a real one that follows it, made once', () => {
    const quiet = createQuietController();
    expect(quiet.signal).not.toBeInstanceOf(AbortSignal);
    const real = hostSignal(quiet.signal) as AbortSignal;
    expect(real).toBeInstanceOf(AbortSignal);
    expect(hostSignal(quiet.signal)).toBe(real);
    // A real signal works where a host puts it: AbortSignal.any, fetch's init.
    const any = AbortSignal.any([real]);
    quiet.abort('stop');
    expect(real.aborted).toBe(true);
    expect(real.reason).toBe('stop');
    expect(any.reason).toBe('stop');
  });

  it('hands out an already aborted real signal after the abort, with its reason', () => {
    const quiet = createQuietController();
    quiet.abort();
    const real = hostSignal(quiet.signal) as AbortSignal;
    expect(real.aborted).toBe(true);
    // No reason given: an AbortError, as a real AbortController gives.
    expect((real.reason as Error).name).toBe('AbortError');
    expect(real.reason).toBe(quiet.signal.reason);
  });

  it('leaves any other signal as it is', () => {
    const controller = new AbortController();
    expect(hostSignal(controller.signal)).toBe(controller.signal);
    expect(hostSignal(undefined)).toBeUndefined();
  });

  it('ignores listeners added after the abort, as a real signal does', () => {
    const quiet = createQuietController();
    quiet.abort('done');
    let heard = false;
    quiet.signal.addEventListener('abort', () => (heard = true));
    quiet.abort('again');
    expect(heard).toBe(false);
  });
});
