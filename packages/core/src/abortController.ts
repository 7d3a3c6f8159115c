import type { AbortSignalLike } from './types';

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

/** A real AbortController from the host (every runtime waitfor targets has one), typed without DOM. */
export const createAbortController = (): AbortControllerLike =>
  new (
    globalThis as unknown as { AbortController: new () => AbortControllerLike }
  ).AbortController();
