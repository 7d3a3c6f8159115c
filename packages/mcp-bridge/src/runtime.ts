/**
 * Timers and abort controllers read from globalThis through typed casts, so the main entry needs
 * neither DOM nor Node types (both hosts provide them at run time).
 */
import type { AbortSignalLike } from '@waitfor/core';

/** An AbortController as far as the bridge uses it. */
export interface ControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

interface RuntimeGlobals {
  AbortController: new () => ControllerLike;
  setTimeout(callback: () => void, delay: number): unknown;
  clearTimeout(handle: unknown): void;
}

const runtime = globalThis as unknown as RuntimeGlobals;

/** True once `signal` aborted (a function, so TypeScript does not narrow `aborted` across awaits). */
export const isAborted = (signal: AbortSignalLike | undefined): boolean => signal?.aborted === true;

/** A new AbortController. */
export function createController(): ControllerLike {
  return new runtime.AbortController();
}

/** A controller aborted when any of `parents` aborts (with its reason); `dispose` unhooks it from them. */
export function linkedController(
  ...parents: Array<AbortSignalLike | undefined>
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

/** Run `callback` after `delay` ms; returns a cancel function. */
export function schedule(delay: number, callback: () => void): () => void {
  const handle = runtime.setTimeout(callback, delay);
  return () => runtime.clearTimeout(handle);
}

/** The largest delay a JavaScript timer accepts (~24.8 days): "no timeout" for the SDKs. */
export const MAX_TIMER_DELAY = 2_147_483_647;
