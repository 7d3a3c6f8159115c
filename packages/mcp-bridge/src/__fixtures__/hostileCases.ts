/**
 * The hostile cases as one table, for every public path (attachWaitFor, connect, the gateway, the
 * AI SDK and LangGraph adapters): a tool of the hostile server (hostileServer.ts), how the person
 * answers, and what the call must end in through the bridge, per era — the tool's result, or a
 * typed BridgeError code — with how many Requests reach the person and how many answers reach the
 * server (counted on the server side, so an answer sent twice shows).
 *
 * A path that surfaces the bridge's outcome differently maps it itself (the gateway turns a
 * BridgeError into the host's JSON-RPC error); a path that cannot run a case, or ends it otherwise
 * for a reason of its own, says so in its test file. `knownDefects` records what a path does today
 * where that is wrong: its test asserts exactly that, so it fails once the defect is fixed.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { accept } from '@waitfor/core';
import { expect } from 'vitest';
import { BridgeError, type BridgeErrorCode } from '../index';
import { resultText } from './hostileHelpers';
import type { HostileLog } from './hostileServer';

/** A protocol era. */
export type Era = 'legacy' | 'modern';

/**
 * How the person answers: confirms; their waitFor throws; never answers and the call is aborted
 * once asked; answers with another Request's id.
 */
export type PersonKind = 'confirms' | 'throws' | 'aborts' | 'answersOther';

/** What a call ends in: the tool's result (its text), or a typed error. */
export type Ending = { result: string | RegExp } | { error: BridgeErrorCode };

/** The public paths the table runs through besides the bridge's own. */
export type HostilePath = 'gateway' | 'ai-sdk' | 'langgraph';

/** What a path does today where it should not (its test asserts this until it is fixed). */
export interface KnownDefect {
  /** Why it is wrong, and where. */
  reason: string;
  eras: readonly Era[];
  /** What the path ends in today. */
  today: Ending | { hangs: true };
}

/** One hostile case. */
export interface HostileCase {
  title: string;
  tool: string;
  arguments?: Record<string, unknown>;
  person: PersonKind;
  /** The bridge's call options the case needs (a round cap, a time budget). */
  call?: { maxRounds?: number; timeout?: number };
  /** What the call ends in through the bridge, per era it runs in (only these eras run). */
  ends: Partial<Record<Era, Ending>>;
  /**
   * Where a v1 `@modelcontextprotocol/sdk` client ends otherwise (legacy era): it validates a
   * pushed request itself and refuses a malformed one with -32603 before any handler runs.
   */
  v1Ends?: Ending;
  /** Requests the person is handed. */
  asked: number;
  /** Answers the server gets (legacy: elicitation results; modern: retries with inputResponses). */
  sent: number | Partial<Record<Era, number>>;
  /** Legacy pushes the client answered with a JSON-RPC error (a protocol-correct refusal). */
  refused?: number;
  knownDefects?: Partial<Record<HostilePath, KnownDefect>>;
}

const refusedLegacy = (code: number): Ending => ({ result: `refused: ${code}` });

/**
 * Oversize questions, each just past a default limit (src/limits.ts, core's form limits): refused
 * before anyone is asked. The sizes stay small enough to run in the test's own process; the
 * crash-scale sizes run in a child process (hostileLimits.test.ts).
 */
const oversize: HostileCase[] = [
  ['huge_default', 100_001, 'a string default past 100,000 characters'],
  ['many_choices', 1_001, 'a multi-select of 1,001 choices'],
  ['many_fields', 1_001, 'a form of 1,001 fields'],
  ['long_url', 8_200, 'a URL past 8,192 characters'],
  ['long_elicitation_id', 257, 'an elicitationId past 256 characters'],
].map(([tool, size, what]) => ({
  title: `${String(what)} is refused before anyone is asked`,
  tool: String(tool),
  arguments: { size },
  person: 'confirms',
  ends: { legacy: refusedLegacy(-32602), modern: { error: 'invalid_params' } },
  asked: 0,
  sent: 0,
  refused: 1,
}));

/** Every hostile case of hostileServer.ts, for every path. */
export const hostileCases: readonly HostileCase[] = [
  {
    title: 'a well-formed question is answered exactly once',
    tool: 'confirm',
    person: 'confirms',
    ends: { legacy: { result: /"confirmed":true/ }, modern: { result: /"confirmed":true/ } },
    asked: 1,
    sent: 1,
  },
  {
    title: 'malformed elicitation params are refused without asking the person',
    tool: 'malformed_params',
    person: 'confirms',
    ends: { legacy: refusedLegacy(-32602), modern: { error: 'invalid_params' } },
    v1Ends: refusedLegacy(-32603),
    asked: 0,
    sent: 0,
    refused: 1,
  },
  {
    title: 'a nested form schema is refused without asking the person',
    tool: 'bad_schema',
    person: 'confirms',
    ends: { legacy: refusedLegacy(-32602), modern: { error: 'invalid_params' } },
    v1Ends: refusedLegacy(-32603),
    asked: 0,
    sent: 0,
    refused: 1,
  },
  {
    // Modern: the v2 server refuses to emit an unknown method; its own -32603 arrives as a wire error.
    title: 'an unknown method is refused without asking the person',
    tool: 'unknown_method',
    person: 'confirms',
    ends: { legacy: refusedLegacy(-32601), modern: { error: 'server_error' } },
    asked: 0,
    sent: 0,
    refused: 1,
  },
  {
    title: 'a waitFor that throws ends the question without a second answer',
    tool: 'confirm',
    person: 'throws',
    // Legacy: the push is answered cancel (nobody chose); modern: nothing is retried.
    ends: { legacy: { result: '{"action":"cancel"}' }, modern: { error: 'wait_failed' } },
    asked: 1,
    sent: { legacy: 1, modern: 0 },
  },
  {
    title: 'an abort ends a question nobody answers, and reaches its waitFor',
    tool: 'confirm',
    person: 'aborts',
    ends: { legacy: { error: 'aborted' }, modern: { error: 'aborted' } },
    asked: 1,
    // Legacy: the server's pushed question is answered cancel, once; modern: no retry.
    sent: { legacy: 1, modern: 0 },
  },
  {
    title: 'an answer for another Request is not sent as this one',
    tool: 'confirm',
    person: 'answersOther',
    ends: { legacy: { result: '{"action":"cancel"}' }, modern: { result: '{"action":"cancel"}' } },
    asked: 1,
    sent: 1,
  },
  {
    title: 'an endless input_required loop stops at the round cap',
    tool: 'endless',
    person: 'confirms',
    call: { maxRounds: 3 },
    ends: { modern: { error: 'rounds_exceeded' } },
    asked: 3,
    sent: 3,
  },
  {
    title: 'a 1 MB requestState is echoed byte-exact',
    tool: 'big_state',
    person: 'confirms',
    ends: { modern: { result: 'state-ok' } },
    asked: 1,
    sent: 1,
  },
  ...oversize,
  {
    title: 'a requestState past 4 MiB is refused, nothing retried',
    tool: 'huge_state',
    arguments: { size: 4 * 1024 * 1024 + 1 },
    person: 'confirms',
    ends: { modern: { error: 'invalid_params' } },
    asked: 0,
    sent: 0,
  },
  {
    title: 'a round of 101 inputRequests is refused, nothing retried',
    tool: 'many_questions',
    arguments: { size: 101 },
    person: 'confirms',
    ends: { modern: { error: 'invalid_params' } },
    asked: 0,
    sent: 0,
  },
];

/** The cases that run in `era`, each with its ending there: [title, case, ending] for test.each. */
export function casesOf(
  era: Era,
  cases: readonly HostileCase[] = hostileCases,
): Array<[string, HostileCase, Ending]> {
  return cases.flatMap((item) => {
    const ending = item.ends[era];
    return ending === undefined
      ? []
      : [[item.title, item, ending] as [string, HostileCase, Ending]];
  });
}

/** The answers `item` must get to the server in `era`. */
export const sentIn = (item: HostileCase, era: Era): number =>
  typeof item.sent === 'number' ? item.sent : (item.sent[era] ?? 0);

/** The known defect of `item` on `path` in `era`, if any. */
export function defectOf(item: HostileCase, path: HostilePath, era: Era): KnownDefect | undefined {
  const defect = item.knownDefects?.[path];
  return defect?.eras.includes(era) ? defect : undefined;
}

/** What the server logged for `tool` (of one kind: a call, an answer, a refusal). */
export const entriesOf = (log: HostileLog, tool: string, kind?: 'call' | 'answer' | 'refusal') =>
  log.entries.filter((entry) => entry.tool === tool && (kind === undefined || entry.kind === kind));

/** The answers that reached the server for `tool` in `era` (counted on the server side). */
export const answersSent = (log: HostileLog, tool: string, era: Era): number =>
  era === 'legacy'
    ? entriesOf(log, tool, 'answer').length
    : entriesOf(log, tool, 'call').filter((entry) => entry.inputResponses !== undefined).length;

/** A person of `kind`, recording what it was handed; `aborts` aborts `controller` once asked. */
export function personOf(kind: PersonKind, controller: AbortController) {
  const requests: Request[] = [];
  const signals: AbortSignal[] = [];
  const waitFor: WaitFor = (request, context) => {
    requests.push(request);
    if (context?.signal !== undefined) signals.push(context.signal as AbortSignal);
    if (kind === 'throws') return Promise.reject(new Error('the UI crashed'));
    if (kind === 'answersOther')
      return Promise.resolve(accept(`${request.id}-other`, { confirmed: true }));
    if (kind === 'aborts') {
      // Never answered: the call's abort alone must end it (the signal is ignored on purpose).
      controller.abort(new Error('the person walked away'));
      return new Promise<Answer>(() => {});
    }
    return Promise.resolve(accept(request, { confirmed: true }));
  };
  return { waitFor, requests, signals };
}

/** How a call settled: its result, or what it rejected with. */
export type Settled = { result: unknown } | { error: unknown };

/** `promise`'s settlement, never a rejection. */
export const settle = (promise: Promise<unknown>): Promise<Settled> =>
  promise.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );

/** Fails unless `settled` is `ending`: the result's text matches, or a BridgeError of its code. */
export function expectEnding(settled: Settled, ending: Ending): void {
  if ('result' in ending) {
    if ('error' in settled) throw new Error(`expected a result, got ${String(settled.error)}`);
    if (typeof ending.result === 'string') expect(resultText(settled.result)).toBe(ending.result);
    else expect(resultText(settled.result)).toMatch(ending.result);
    return;
  }
  if ('result' in settled)
    throw new Error(
      `expected ${ending.error}, got ${JSON.stringify(settled.result).slice(0, 300)}`,
    );
  expect(BridgeError.isInstance(settled.error), String(settled.error)).toBe(true);
  expect((settled.error as BridgeError).code).toBe(ending.error);
}
