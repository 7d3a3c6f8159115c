/**
 * Reading URLElicitationRequiredError (-32042, protocol 2025-11-25 only) out of whatever a call threw.
 *
 * Invariants:
 * - Only the JSON-RPC code decides: a BridgeError's `rpc`, an SDK error's numeric `code`, or the
 *   same on an error's `cause` chain. Errors that are not -32042 are never touched.
 * - A -32042 whose `data.elicitations` is not a non-empty list of URL elicitations with
 *   `elicitationId`, `url` and `message` is a typed error, never a crash and never a guess.
 * - Sizes are bounded before anything else is looked at: a list longer than the host's limit fails
 *   `too_many_elicitations`; an elicitationId or url over its bound is malformed data. Every check
 *   is linear in the list.
 */
import type { Request } from '@waitfor/core';
import { findInCauses, isRecord } from './findInCauses';
import { LegacySpecError } from './legacySpecError';

/** The JSON-RPC code of URLElicitationRequiredError. */
export const urlElicitationRequiredCode = -32042;

/** One URL elicitation listed by a -32042 error (ElicitRequestURLParams). */
export interface UrlElicitationParams {
  mode: 'url';
  message: string;
  url: string;
  elicitationId: string;
}

// A scheme and something after it; the consent view decides which schemes may be opened.
const absoluteUrl = /^[a-z][a-z0-9+.-]*:\S+$/i;

/** How many URL elicitations one -32042 may list unless the host allows more. */
export const defaultMaxElicitations = 100;

/**
 * True for an elicitationId that is empty or longer than 256 characters, or a url longer than
 * 8192: sizes a server does not get to choose, in a -32042 and in a pushed elicitation alike.
 */
export const outOfBounds = (elicitationId: string, url: string): boolean =>
  !elicitationId || elicitationId.length > 256 || url.length > 8192;

/** `request` with the server's `elicitationId` under `data.elicitationId` (its `id` stays the bridge's). */
export const withElicitationId = (request: Request, elicitationId: string): Request => ({
  ...request,
  data: { ...request.data, elicitationId },
});

/** The JSON-RPC error (`{code, data}`) a link of the chain carries, directly or as a BridgeError's `rpc`. */
const wireErrorOf = (link: Record<string, unknown>) => {
  const rpc = link['rpc'];
  if (isRecord(rpc) && typeof rpc['code'] === 'number') return rpc;
  return typeof link['code'] === 'number' ? link : undefined;
};

/**
 * The URL elicitations of a -32042 error, or undefined when `error` is not one.
 * Throws LegacySpecError `too_many_elicitations` when it lists more than `max`, and
 * `invalid_error_data` when it is -32042 but its data is malformed.
 */
export function urlElicitationsOf(
  error: unknown,
  max = defaultMaxElicitations,
): UrlElicitationParams[] | undefined {
  const wire = findInCauses(error, wireErrorOf);
  if (wire?.['code'] !== urlElicitationRequiredCode) return undefined;
  // Names where the data is malformed; the error is for the server's developer.
  const invalid = (where = '', problem = '') =>
    new LegacySpecError(
      'invalid_error_data',
      `Malformed -32042 data.elicitations${where}${problem}.`,
      {
        cause: error,
      },
    );
  const data = wire['data'];
  const list = isRecord(data) ? data['elicitations'] : undefined;
  if (!Array.isArray(list) || list.length === 0) throw invalid();
  if (list.length > max) {
    throw new LegacySpecError(
      'too_many_elicitations',
      `-32042 lists ${list.length} URL elicitations (limit ${max}).`,
      { cause: error },
    );
  }
  const seen = new Set<string>();
  return list.map((item: unknown, index) => {
    const { mode, elicitationId, url, message }: Record<string, unknown> = isRecord(item)
      ? item
      : {};
    if (
      mode !== 'url' ||
      typeof elicitationId !== 'string' ||
      typeof url !== 'string' ||
      outOfBounds(elicitationId, url) ||
      !absoluteUrl.test(url) ||
      typeof message !== 'string'
    ) {
      throw invalid(`[${index}]`);
    }
    if (seen.has(elicitationId)) throw invalid(`[${index}]`, ': elicitationId listed twice');
    seen.add(elicitationId);
    return { mode, elicitationId, url, message };
  });
}
