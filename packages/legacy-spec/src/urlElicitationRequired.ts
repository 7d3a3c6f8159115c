/**
 * Reading URLElicitationRequiredError (-32042, protocol 2025-11-25 only) out of whatever a call threw.
 *
 * Invariants:
 * - Only the JSON-RPC code decides: a BridgeError's `rpc`, an SDK error's numeric `code`, or the
 *   same on an error's `cause` chain. Errors that are not -32042 are never touched.
 * - A -32042 whose `data.elicitations` is not a non-empty list of URL elicitations with
 *   `elicitationId`, `url` and `message` is a typed error, never a crash and never a guess.
 * - Sizes are bounded before anything else is looked at: a list longer than the host's limit fails
 *   `too_many_elicitations`; an elicitationId over 256 characters (or empty) or a url over 8192
 *   is malformed data. Every check
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

/** `request` with the server's `elicitationId` under `data.elicitationId` (its `id` stays the bridge's). */
export const withElicitationId = (request: Request, elicitationId: string): Request => ({
  ...request,
  data: { ...request.data, elicitationId },
});

/** The JSON-RPC error (`{code, data}`) a link of the chain carries, directly or as a BridgeError's `rpc`. */
const wireErrorOf = (link: Record<string, unknown>) =>
  [link['rpc'], link].find(
    (candidate): candidate is Record<string, unknown> =>
      isRecord(candidate) && typeof candidate['code'] === 'number',
  );

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
  const invalid = (where = '') =>
    new LegacySpecError('invalid_error_data', `Malformed -32042 data.elicitations${where}`, {
      cause: error,
    });
  const data = wire['data'];
  const list = isRecord(data) ? data['elicitations'] : undefined;
  if (!Array.isArray(list) || list.length === 0) throw invalid();
  if (list.length > max) {
    throw new LegacySpecError(
      'too_many_elicitations',
      `-32042 lists ${list.length} (limit ${max})`,
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
      // Sizes a server does not get to choose (the bridge bounds a pushed elicitation the same way).
      !elicitationId ||
      elicitationId.length > 256 ||
      url.length > 8192 ||
      !absoluteUrl.test(url) ||
      typeof message !== 'string'
    ) {
      throw invalid(`[${index}]`);
    }
    if (seen.has(elicitationId)) throw invalid(`[${index}]: elicitationId listed twice`);
    seen.add(elicitationId);
    return { mode, elicitationId, url, message };
  });
}
