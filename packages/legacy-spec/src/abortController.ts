import type { AbortSignalLike } from '@waitfor/core';

/** What this package needs of an AbortController, typed without DOM or Node types. */
export interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

/** A real AbortController from the host (every runtime waitfor targets has one). */
export const createAbortController = (): AbortControllerLike =>
  new (
    globalThis as unknown as { AbortController: new () => AbortControllerLike }
  ).AbortController();
