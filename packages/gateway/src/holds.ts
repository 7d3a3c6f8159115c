/**
 * The calls a modern-era host has been given questions for and not yet answered: each is held
 * under a sealed requestState, for at most `holdMs` and at most `maxHeld` at once. Taking a call
 * (the host's retry) removes it, so a state works once; one that outlives its bound is ended
 * (upstream call aborted, its questions cancelled) and its state then names nothing.
 */
import type { GatewayCall } from './call';
import { Sealer } from './seal';

/** The timers the gateway uses (inject a fake clock in tests). */
export interface Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Held {
  call: GatewayCall;
  timer: unknown;
}

export class HeldCalls {
  readonly #held = new Map<string, Held>();
  readonly #sealer: Sealer;

  constructor(
    private readonly options: {
      holdMs: number;
      maxHeld: number;
      clock: Clock;
      key?: Uint8Array;
      log: (line: string) => void;
    },
  ) {
    this.#sealer = new Sealer(options.key);
  }

  get size(): number {
    return this.#held.size;
  }

  /** Hold `call` for the host's retry; returns the sealed state naming it, or undefined when full. */
  hold(call: GatewayCall): string | undefined {
    if (this.#held.size >= this.options.maxHeld) return undefined;
    call.round += 1;
    const timer = this.options.clock.setTimeout(() => this.#expire(call), this.options.holdMs);
    this.#held.set(call.id, { call, timer });
    return this.#sealer.seal({ call: call.id, round: call.round });
  }

  /** The call a retry's state names, released from the table; throws for any other state. */
  take(state: unknown): GatewayCall {
    const { call: id, round } = this.#sealer.open(state);
    const held = this.#held.get(id);
    if (held === undefined || held.call.round !== round)
      throw new Error('requestState names no held call (already used, expired or unknown)');
    this.#held.delete(id);
    this.options.clock.clearTimeout(held.timer);
    return held.call;
  }

  /** End every held call (the gateway closes). */
  clear(reason: unknown): void {
    for (const { call, timer } of this.#held.values()) {
      this.options.clock.clearTimeout(timer);
      call.cancel(reason);
    }
    this.#held.clear();
  }

  #expire(call: GatewayCall): void {
    if (this.#held.get(call.id)?.call !== call) return;
    this.#held.delete(call.id);
    this.options.log(
      `held ${call.method} ${call.name} expired after ${this.options.holdMs} ms without the host's retry: ended upstream`,
    );
    call.cancel(new Error('the held call expired'));
  }
}
