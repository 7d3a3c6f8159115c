/**
 * Reading URLElicitationRequiredError (-32042, protocol 2025-11-25 only) out of whatever a call threw.
 *
 * Invariants:
 * - Only the JSON-RPC code decides: a BridgeError's `rpc`, an SDK error's numeric `code`, or the
 *   same on an error's `cause` chain. Errors that are not -32042 are never touched.
 * - A -32042 whose `data.elicitations` is not a non-empty list of URL elicitations with
 *   `elicitationId`, `url` and `message` is a typed error, never a crash and never a guess.
 */
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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The `{code, data}` of a JSON-RPC error found on the value or its cause chain, if any. */
function wireErrorOf(error: unknown): { code: number; data: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isRecord(current); depth += 1) {
    const rpc = current['rpc'];
    if (isRecord(rpc) && typeof rpc['code'] === 'number')
      return { code: rpc['code'], data: rpc['data'] };
    if (typeof current['code'] === 'number')
      return { code: current['code'], data: current['data'] };
    current = current['cause'];
  }
  return undefined;
}

/**
 * The URL elicitations of a -32042 error, or undefined when `error` is not one.
 * Throws LegacySpecError `invalid_error_data` when it is -32042 but its data is malformed.
 */
export function urlElicitationsOf(error: unknown): UrlElicitationParams[] | undefined {
  const wire = wireErrorOf(error);
  if (!wire || wire.code !== urlElicitationRequiredCode) return undefined;
  const list = isRecord(wire.data) ? wire.data['elicitations'] : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new LegacySpecError(
      'invalid_error_data',
      'URLElicitationRequiredError (-32042) without data.elicitations.',
      {
        cause: error,
      },
    );
  }
  const seen = new Set<string>();
  return list.map((item, index) => {
    const where = `data.elicitations[${index}]`;
    if (!isRecord(item) || item['mode'] !== 'url') {
      throw new LegacySpecError('invalid_error_data', `${where} is not a URL-mode elicitation.`, {
        cause: error,
      });
    }
    const { elicitationId, url, message } = item;
    if (typeof elicitationId !== 'string' || elicitationId === '') {
      throw new LegacySpecError('invalid_error_data', `${where}.elicitationId is missing.`, {
        cause: error,
      });
    }
    if (typeof url !== 'string' || !isAbsoluteUrl(url)) {
      throw new LegacySpecError('invalid_error_data', `${where}.url is not an absolute URL.`, {
        cause: error,
      });
    }
    if (typeof message !== 'string') {
      throw new LegacySpecError('invalid_error_data', `${where}.message is not a string.`, {
        cause: error,
      });
    }
    if (seen.has(elicitationId)) {
      throw new LegacySpecError(
        'invalid_error_data',
        `${where}.elicitationId "${elicitationId}" is listed twice.`,
        {
          cause: error,
        },
      );
    }
    seen.add(elicitationId);
    return { mode: 'url', elicitationId, url, message };
  });
}

// A scheme and something after it; the consent view decides which schemes may be opened.
const absoluteUrl = /^[a-z][a-z0-9+.-]*:\S+$/i;

function isAbsoluteUrl(value: string): boolean {
  return absoluteUrl.test(value);
}
