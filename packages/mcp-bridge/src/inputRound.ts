/**
 * Resolve all inputRequests of one modern-era round concurrently.
 *
 * Invariants: every key of `inputRequests` gets a response under the same key; the round engine
 * (`askAll` of @waitfor/core/tools) gives each question its own signal, and the round's abort (the
 * call's signal, or the round's first failure) reaches them all through ONE listener, so no signal
 * collects a listener per question (Node warns past 10) and no waitFor is left open; sampling/roots go to host handlers and fail with
 * 'unsupported_input_request' when the host gave none (then they were not declared either).
 */
import type { AbortSignalLike, RequestOrigin, WaitFor } from '@waitfor/core';
import { askPerson, checkParsed, type AskHooks } from './askPerson';
import { BridgeError } from './bridgeError';
import type { ElicitationMode } from './capabilities';
import { inboundRewrite, type BridgeExtension } from './extension';
import { isRecord, parseElicitationParams, type ElicitationParams } from './mapping';
import { askAll } from '@waitfor/core/tools';
import type { RootsHandler, SamplingHandler } from './bridgeState';
import { noWaitFor } from './callOptions';
import { checkBound, type BridgeLimits } from './limits';
import type { InputRequest } from './types';

/** Everything a round needs. */
export interface RoundContext {
  /** Who answers: the person (waitFor; unset: nobody, every question cancelled) and the host. */
  handlers: {
    waitFor?: WaitFor | undefined;
    sampling?: SamplingHandler | undefined;
    roots?: RootsHandler | undefined;
  };
  modes: readonly ElicitationMode[];
  maxAttempts: number;
  /** Bounds on what the server sends (unset: the defaults). */
  limits?: BridgeLimits | undefined;
  origin: RequestOrigin;
  signal?: AbortSignalLike | undefined;
  hooks?: AskHooks | undefined;
  /** The attachment's extensions: their `inboundRequest` sees each elicitation's own params. */
  extensions?: readonly BridgeExtension[] | undefined;
}

/** Check an untrusted inputRequests map of at most `limit` entries; throws 'invalid_params'. */
export function parseInputRequests(value: unknown, limit = Infinity): Record<string, InputRequest> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new BridgeError('invalid_params', 'inputRequests must be an object');
  const entries = Object.entries(value);
  checkBound('inputRequests', entries.length, limit, 'entries');
  // fromEntries: a key such as "__proto__" stays an own key, as the server sent it.
  return Object.fromEntries(
    entries.map(([key, entry]) => {
      const { method, params } = isRecord(entry) ? entry : {};
      if (typeof method !== 'string' || (params !== undefined && !isRecord(params)))
        throw new BridgeError(
          'invalid_params',
          `inputRequests["${key}"] must be {method, params?}`,
        );
      // Only the two known keys are kept.
      return [key, { method, ...(params !== undefined && { params }) }];
    }),
  );
}

/**
 * Fail clearly on an inputRequest this host cannot serve (before anything is asked); returns an
 * elicitation's params, checked.
 */
export function assertServable(
  key: string,
  entry: InputRequest,
  context: Pick<RoundContext, 'handlers' | 'modes'>,
): ElicitationParams | undefined {
  if (entry.method === 'elicitation/create') {
    const parsed = parseElicitationParams(entry.params);
    if (!context.modes.includes(parsed.mode)) {
      throw new BridgeError(
        'unsupported_input_request',
        `inputRequests["${key}"]: ${parsed.mode} mode not declared`,
      );
    }
    return parsed;
  }
  if (entry.method === 'sampling/createMessage' && context.handlers.sampling !== undefined)
    return undefined;
  if (entry.method === 'roots/list' && context.handlers.roots !== undefined) return undefined;
  throw new BridgeError(
    'unsupported_input_request',
    `inputRequests["${key}"]: ${entry.method} not served`,
  );
}

/** Answer one sampling or roots inputRequest through the host's handler (assertServable passed it). */
export async function answerHostRequest(
  entry: InputRequest,
  context: RoundContext,
): Promise<unknown> {
  const { sampling, roots } = context.handlers;
  const handlerContext = { signal: context.signal, origin: context.origin };
  try {
    return await (entry.method === 'roots/list'
      ? roots!(handlerContext)
      : sampling!(entry.params ?? {}, handlerContext));
  } catch (error) {
    throw new BridgeError('wait_failed', `The host's ${entry.method} handler threw`, {
      cause: error,
    });
  }
}

/** Resolve every inputRequest of a round concurrently; responses are keyed exactly like the requests. */
export async function resolveRound(
  inputRequests: Record<string, InputRequest>,
  context: RoundContext,
): Promise<Record<string, unknown>> {
  const entries = Object.entries(inputRequests);
  // Every question is checked (and bounded) before anyone is asked: one the server broke refuses
  // the whole round, and nobody answers half of it.
  const questions = entries.map(([key, entry]) => {
    const params = assertServable(key, entry, context);
    return params && checkParsed(params, context.limits?.form);
  });
  // The round engine asks them all at once: one abort fan-out, a failure ends the others.
  const answers = await askAll(
    entries,
    ([key, entry], question, index) => {
      const origin = { ...context.origin, inputKey: key };
      const checked = questions[index];
      return checked !== undefined
        ? askPerson(checked, {
            ...context,
            waitFor: context.handlers.waitFor ?? noWaitFor,
            origin,
            signal: question.signal,
            rewrite: inboundRewrite(context.extensions, entry.params ?? {}),
          })
        : answerHostRequest(entry, { ...context, origin, signal: question.signal });
    },
    context.signal,
  );
  // fromEntries: a key such as "__proto__" stays an own key, as the server sent it.
  return Object.fromEntries(entries.map(([key], index) => [key, answers[index]]));
}
