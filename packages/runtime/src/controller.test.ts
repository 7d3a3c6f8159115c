import { describe, expect, it } from 'vitest';
import { createController, hostSignal, isAborted, linkedController, QuietSignal } from './index';

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

describe('QuietSignal', () => {
  it('tells its listeners once, in order, with the reason, and forgets removed ones', () => {
    const quiet = new QuietSignal();
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
    const quiet = new QuietSignal();
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
    const quiet = new QuietSignal();
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
    const quiet = new QuietSignal();
    quiet.abort('done');
    let heard = false;
    quiet.signal.addEventListener('abort', () => (heard = true));
    quiet.abort('again');
    expect(heard).toBe(false);
  });

  describe('with a parent (the SDK signal of the request a question came with)', () => {
    /** A real AbortController whose signal counts the listeners added to it and still there. */
    function watchedParent() {
      const parent = new AbortController();
      let added = 0;
      let live = 0;
      const add = parent.signal.addEventListener.bind(parent.signal);
      const remove = parent.signal.removeEventListener.bind(parent.signal);
      parent.signal.addEventListener = ((type: string, listener: () => void) => {
        added += 1;
        live += 1;
        add(type, listener);
      }) as never;
      parent.signal.removeEventListener = ((type: string, listener: () => void) => {
        live -= 1;
        remove(type, listener);
      }) as never;
      return { parent, added: () => added, live: () => live };
    }

    it('does not look at the parent until it is listened to, then takes over its abort', () => {
      const watched = watchedParent();
      let reads = 0;
      const signal = watched.parent.signal;
      const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get!;
      Object.defineProperty(signal, 'aborted', {
        get: () => {
          reads += 1;
          return aborted.call(signal) as boolean;
        },
      });
      const quiet = new QuietSignal(signal);
      watched.parent.abort('server cancelled');
      // Read only: the parent is neither read nor hooked (an answer given now goes nowhere anyway).
      expect(isAborted(quiet.signal)).toBe(false);
      expect(reads).toBe(0);
      let heard = false;
      quiet.signal.addEventListener('abort', () => (heard = true));
      // Listened to: the abort it missed is taken over at once, with its reason, and no listener
      // is left on the parent.
      expect(isAborted(quiet.signal)).toBe(true);
      expect(quiet.signal.reason).toBe('server cancelled');
      expect(heard).toBe(false);
      expect(watched.added()).toBe(0);
    });

    it('hooks the parent for its first listener, once, and unhooks it on release', () => {
      const watched = watchedParent();
      const quiet = new QuietSignal(watched.parent.signal);
      const heard: unknown[] = [];
      quiet.signal.addEventListener('abort', () => heard.push(quiet.signal.reason));
      quiet.signal.addEventListener('abort', () => heard.push('second'));
      expect(watched.added()).toBe(1);
      quiet.release();
      expect(watched.live()).toBe(0);
      watched.parent.abort('late');
      expect(heard).toEqual([]);
      expect(isAborted(quiet.signal)).toBe(false);
    });

    it('aborts its listeners and its real signal when the hooked parent aborts', () => {
      const watched = watchedParent();
      const quiet = new QuietSignal(watched.parent.signal);
      const real = hostSignal(quiet.signal) as AbortSignal;
      const heard: unknown[] = [];
      quiet.signal.addEventListener('abort', () => heard.push(quiet.signal.reason));
      expect(watched.added()).toBe(1);
      watched.parent.abort('gone');
      expect(heard).toEqual(['gone']);
      expect(real.reason).toBe('gone');
      // Its own abort ends the following: the parent holds no listener of a question that is over.
      expect(watched.live()).toBe(0);
    });

    it('starts aborted when the parent already is, and then adds no listener', () => {
      const watched = watchedParent();
      watched.parent.abort('before');
      const quiet = new QuietSignal(watched.parent.signal);
      let heard = false;
      quiet.signal.addEventListener('abort', () => (heard = true));
      expect(heard).toBe(false);
      expect((hostSignal(quiet.signal) as AbortSignal).reason).toBe('before');
      expect(watched.added()).toBe(0);
    });
  });
});
