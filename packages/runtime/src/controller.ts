/** An AbortSignal as far as waitfor uses it, typed without DOM or Node types (a real one fits). */
export interface SignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An AbortController as far as waitfor uses it. */
export interface ControllerLike {
  readonly signal: SignalLike;
  abort(reason?: unknown): void;
}

/** True once `signal` aborted (a function, so TypeScript does not narrow `aborted` across awaits). */
export const isAborted = (signal: SignalLike | undefined): boolean => signal?.aborted === true;

/** A real AbortController from the host (every runtime waitfor targets has one). */
export const createController = (): ControllerLike =>
  new (globalThis as unknown as { AbortController: new () => ControllerLike }).AbortController();

/**
 * A controller aborted when any of `parents` aborts (with its reason): one listener on each parent,
 * which `dispose` removes again.
 */
export function linkedController(
  ...parents: Array<SignalLike | undefined>
): ControllerLike & { dispose(): void } {
  const controller = createController();
  const hooked: Array<() => void> = [];
  const dispose = () => {
    for (const unhook of hooked.splice(0)) unhook();
  };
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => {
      controller.abort(parent.reason);
      dispose();
    };
    parent.addEventListener('abort', onAbort, { once: true });
    hooked.push(() => parent.removeEventListener('abort', onAbort));
  }
  if (controller.signal.aborted) dispose();
  return Object.assign(controller, { dispose });
}

/**
 * One controller per item of `items`, all aborted when the batch is (`signal` aborts, or
 * `batch.abort`) through ONE listener on the batch's signal: however many items, no signal collects
 * a listener each (Node warns past 10). The batch needs `dispose()` once settled.
 */
export function controllerBatch(signal: SignalLike | undefined, items: readonly unknown[]) {
  const batch = linkedController(signal);
  const controllers = items.map(createController);
  const fanOut = () => {
    for (const controller of controllers) controller.abort(batch.signal.reason);
  };
  batch.signal.addEventListener('abort', fanOut);
  if (batch.signal.aborted) fanOut();
  return [batch, controllers] as const;
}

/**
 * A signal for waitfor's own bookkeeping (one per question), and its own controller: a SignalLike
 * without an EventTarget behind it (a plain
 * listener list), about a tenth of the cost of a real AbortController. Only waitfor's own code
 * listens to it; `hostSignal` hands code outside waitfor a real AbortSignal made from it on first use.
 *
 * It may follow a parent (an SDK's signal for the request a question came with), hooked only once
 * this signal has a listener or a real signal: then a parent that already aborted aborts it at
 * once, and a later abort reaches it as it happens. Until then it does not look at the parent at
 * all (an SDK's AbortSignal is costly to touch, even to read `aborted`): a question answered before
 * anyone waited on it never does. That is safe because nobody waited: the SDK sends no response to
 * a request it aborted, so an answer given meanwhile goes nowhere. Its owner may extend it (the
 * bridge's linked questions do) to keep its own bookkeeping on the one object.
 */
export class QuietSignal implements SignalLike, ControllerLike {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Array<() => void> = [];
  #real: ControllerLike | undefined;
  #parent: SignalLike | undefined;
  #onParent: (() => void) | undefined;

  constructor(parent?: SignalLike) {
    this.#parent = parent;
  }

  /** Its own controller: one object per question (waitfor's code only; hosts get `real()`). */
  get signal(): this {
    return this;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#follow();
    if (!this.aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }

  /** Abort once: waitfor's listeners first (registered first, as on one real signal), then the real one. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    // What a real AbortController uses when no reason is given.
    this.reason =
      reason ??
      new (
        globalThis as unknown as { DOMException: new (message: string, name: string) => unknown }
      ).DOMException('This operation was aborted', 'AbortError');
    this.release();
    for (const listener of this.#listeners.splice(0)) listener();
    this.#real?.abort(this.reason);
  }

  /** The real AbortSignal that follows this one, made on first use. */
  real(): SignalLike {
    if (this.#real === undefined) {
      this.#follow();
      this.#real = createController();
      if (this.aborted) this.#real.abort(this.reason);
    }
    return this.#real.signal;
  }

  /** Hook the parent (once): an abort it already had is taken over now, a later one when it comes. */
  #follow(): void {
    const parent = this.#parent;
    if (parent === undefined || this.#onParent !== undefined) return;
    if (parent.aborted) return this.abort(parent.reason);
    this.#onParent = () => this.abort(parent.reason);
    parent.addEventListener('abort', this.#onParent);
  }

  /** Stop following the parent (the question is over): unhook it if hooked; idempotent. */
  release(): void {
    if (this.#onParent !== undefined) this.#parent?.removeEventListener('abort', this.#onParent);
    this.#parent = this.#onParent = undefined;
  }
}

/**
 * The signal to hand to code outside waitfor: a real AbortSignal (which a host may pass to fetch or
 * AbortSignal.any). A quiet signal's real one is made now, once; any other signal is returned as is.
 */
export function hostSignal<T extends SignalLike | undefined>(
  signal: T,
): T extends QuietSignal ? SignalLike : T {
  return (signal instanceof QuietSignal ? signal.real() : signal) as T extends QuietSignal
    ? SignalLike
    : T;
}
