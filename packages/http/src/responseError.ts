import type { FieldErrors } from '@waitfor/core';
import { endedReasons } from './endings';
import { HttpInboxError } from './httpError';
import type { HttpInboxErrorCode } from './httpError';

const codeOf: Record<number, HttpInboxErrorCode> = {
  400: 'invalid_answer',
  401: 'unauthorized',
  403: 'refused',
  404: 'not_found',
  409: 'conflict',
  413: 'invalid_answer',
  415: 'invalid_answer',
  422: 'invalid_form',
  429: 'refused',
};

/** The typed error of a refused response, with the server's message when it sent one. */
export async function errorOf(response: Response): Promise<HttpInboxError> {
  let body: { message?: unknown; errors?: unknown; ended?: unknown; answeredBy?: unknown } = {};
  try {
    body = (await response.json()) ?? {};
  } catch {
    // Not JSON: the status says enough.
  }
  const message =
    typeof body.message === 'string' ? body.message : `The server answered ${response.status}.`;
  const errors = fieldErrorsOf(body.errors);
  const ended = endedReasons.find((reason) => reason === body.ended);
  return new HttpInboxError(codeOf[response.status] ?? 'unavailable', message, {
    status: response.status,
    ...(errors ? { errors } : {}),
    ...(ended ? { ended } : {}),
    ...(typeof body.answeredBy === 'string' ? { answeredBy: body.answeredBy } : {}),
  });
}

/** What was thrown on the way to the server, as an HttpInboxError (`unavailable` unless it is one). */
export function asError(error: unknown): HttpInboxError {
  return HttpInboxError.isInstance(error)
    ? error
    : new HttpInboxError('unavailable', 'The server could not be reached.', { cause: error });
}

/** The per-field messages of a 422 body: only string messages, in a record without prototype. */
function fieldErrorsOf(value: unknown): FieldErrors | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const errors = Object.create(null) as Record<string, string>;
  for (const [name, message] of Object.entries(value))
    if (typeof message === 'string') errors[name] = message;
  return errors;
}
