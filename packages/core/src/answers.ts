import type { Answer, AnswerReason, Request } from './types';

const idOf = (request: Request | string): string =>
  typeof request === 'string' ? request : request.id;

const refusal =
  (reason: AnswerReason) =>
  (request: Request | string): Answer => ({ id: idOf(request), ok: false, reason });

/** The person (or a policy) said yes; `data` carries what they filled in. */
export const accept = (request: Request | string, data?: Record<string, unknown>): Answer => ({
  id: idOf(request),
  ok: true,
  ...(data && { data }),
});

/** The person explicitly said no. */
export const decline = refusal('declined');

/** The Request ran out of time before anyone answered. */
export const expire = refusal('expired');

const cancelled = refusal('cancelled');

/**
 * Nobody chose: dismissed, aborted or failed. The cause is kept as a non-enumerable `cause` property
 * (read it with `answerCause`) so the Answer's wire shape stays exactly `{id, ok, reason}`.
 */
export const cancel = (request: Request | string, cause?: unknown): Answer =>
  Object.defineProperty(cancelled(request), 'cause', { value: cause });

/** The cause kept on a cancelled Answer (an error thrown by a waitFor, an abort reason), if any. */
export const answerCause = (answer: Answer): unknown => (answer as { cause?: unknown }).cause;
