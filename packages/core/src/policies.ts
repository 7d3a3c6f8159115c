import { decline } from './answers';
import { answerTo } from './parseAnswer';
import { requestOrigin } from './requestOrigin';
import type { Answer, Request, WaitFor, WaitForContext } from './types';

/** A rule in front of a waitFor: an Answer settles the Request without asking, undefined passes it on. */
export type Policy = (
  request: Request,
  context: WaitForContext,
) => Answer | undefined | Promise<Answer | undefined>;

/**
 * Puts policies in front of a waitFor. They run in order; the first one that answers wins and the
 * person is never asked. A malformed policy Answer rejects with `invalid_answer`, an Answer for another
 * id with `answer_mismatch`.
 */
export const withPolicies =
  (waitFor: WaitFor, ...policies: Policy[]): WaitFor =>
  async (request, context = {}) => {
    for (const policy of policies) {
      const answer = await policy(request, context);
      if (answer) return answerTo(request, answer);
    }
    return waitFor(request, context);
  };

const declineIf =
  (test: (request: Request) => boolean): Policy =>
  (request) =>
    test(request) ? decline(request) : undefined;

// Declines when "what `pick` reads from the Request is in `names`" equals `inSet`.
const byName = (
  names: Iterable<string>,
  pick: (request: Request) => string | undefined,
  inSet: boolean,
): Policy => {
  const set = new Set(names);
  return declineIf((request) => set.has(pick(request)!) === inSet);
};

const serverOf = (request: Request): string | undefined => requestOrigin(request)?.server;

/** Declines Requests of the given kinds (e.g. `['authorization']` on a headless host). */
export const declineKinds = (kinds: Iterable<string>): Policy =>
  byName(kinds, (request) => request.kind, true);

/** Declines Requests from the named servers (`data.origin.server`). */
export const declineServers = (names: Iterable<string>): Policy => byName(names, serverOf, true);

/** Declines Requests from every server not named, and Requests that do not say who asks. */
export const allowServers = (names: Iterable<string>): Policy => byName(names, serverOf, false);

// http(s), a host, and no control, format (bidi, zero-width) or separator (space, line) character
// anywhere: they hide or reorder the real target. \p{Cc} holds \0-\x1f and \x7f, \p{Z} the space.
const httpUrl = /^https?:\/\/(?![/?#\\])[^\p{Cc}\p{Cf}\p{Z}]+$/iu;

/**
 * Declines Requests whose `url` is not plain http/https (`javascript:`, `data:`, `file:` …), and
 * `authorization` Requests that carry no url at all.
 */
export const httpUrlsOnly = (): Policy =>
  declineIf((request) =>
    request.url === undefined ? request.kind === 'authorization' : !httpUrl.test(request.url),
  );
