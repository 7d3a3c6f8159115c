// What the store refuses to keep, checked before anything is written: a server's Request and a
// person's Answer both come from outside, and neither may fill the database or hold what no
// PostgreSQL text column can store. The limits are public (re-exported by the package index).
import type { Answer, Request } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { validateAnswerData } from '@waitfor/core/form';
import { StoreError } from './storeError';

/** The longest request id the store keeps: a NOTIFY payload holds a scope and an id. */
export const maxIdLength = 1000;

/** The largest Request the store keeps, in bytes of JSON: a server must not fill the database. */
export const maxRequestBytes = 1024 * 1024;

/** The largest Answer the store keeps, in bytes of JSON: a person's browser must not fill it either. */
export const maxAnswerBytes = 1024 * 1024;

/** True when `value` holds U+0000, which no PostgreSQL text column can store. */
export const hasNul = (value: string): boolean => value.includes('\u0000');

/** The longest scope (and `instance`, `answeredBy`) the store accepts: a NOTIFY payload holds them. */
export const maxScopeLength = 256;

/** Refuses a name the store records (a scope, `instance`, `answeredBy`) that is empty, too long or holds U+0000. */
export function checkName(value: string, name: string): string {
  if (typeof value !== 'string' || value === '' || value.length > maxScopeLength || hasNul(value))
    throw new StoreError(
      'invalid_options',
      `${name} is a string of 1 to ${maxScopeLength} characters without U+0000`,
    );
  return value;
}

/**
 * Refuses (with nothing changed) an answer the store must not keep: larger than maxAnswerBytes,
 * a reason no text column holds, or an accepted form that does not fit the question's schema by the
 * bridge's rule (data is taken as given, so a required field left out is refused, not defaulted).
 */
export function checkAnswer(request: Request | undefined, answer: Answer): void {
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  if (bytes > maxAnswerBytes)
    throw new StoreError(
      'invalid_answer',
      `Answer ${answer.id} is larger than ${maxAnswerBytes} bytes`,
    );
  if (answer.reason !== undefined && hasNul(answer.reason))
    throw new StoreError('invalid_answer', `Answer ${answer.id} has a reason holding U+0000`);
  const schema = request?.data?.schema;
  if (!request || !answer.ok || schema === undefined || request.url !== undefined) return;
  const validation = validateAnswerData(schema, answer.data);
  if (!validation.ok)
    throw new StoreError('invalid_answer', `Answer ${answer.id} does not fit its form`, {
      errors: validation.errors,
    });
}

/** Refuses a Request the store cannot keep as it is, before anything is written; returns its JSON. */
export function checkRequest(parsed: Request): string {
  const { id } = parsed;
  if (id.length > maxIdLength)
    throw new WaitforError('invalid_request', `Request.id is longer than ${maxIdLength}`, {
      path: 'id',
    });
  if (hasNul(id) || hasNul(parsed.kind))
    throw new WaitforError('invalid_request', 'Request.id and Request.kind must not hold U+0000', {
      path: hasNul(id) ? 'id' : 'kind',
    });
  const json = JSON.stringify(parsed);
  if (Buffer.byteLength(json) > maxRequestBytes)
    throw new WaitforError('invalid_request', `Request is larger than ${maxRequestBytes} bytes`);
  return json;
}
