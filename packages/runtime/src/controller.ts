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
