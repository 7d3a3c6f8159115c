/**
 * One host call (tools/call, prompts/get or resources/read) relayed upstream: the upstream call
 * runs on its own, and the questions it raises wait in this object until the host's side of the
 * gateway hands them to the host and brings the host's answers back. A question is an elicitation
 * or the upstream's sampling/createMessage or roots/list (relayed to the host the same way, either
 * era). A question keeps the key its upstream gave it (a 2026-07-28 server's inputRequests key), so
 * a modern host sees the server's own keys and its inputResponses go back under them; a question
 * with no key of its own (a 2025 push), one whose key is longer than MAX_KEY_LENGTH or is
 * `__proto__`, or one whose key is already open in this call gets a gateway key q1, q2, … not open
 * at the time. Either way the open keys of a call are unique, and an answer reaches its question by
 * the question, never by the upstream's key.
 *
 * A server is untrusted and may raise thousands of questions at once: the open questions are kept
 * in maps by key (queued, then given to the host), so telling whether a key is open and unlinking
 * a settled question cost the same at any size, and each map keeps the order questions came in
 * (the order the host gets them). A question past `maxQuestions`, or one raised once the call has
 * ended, is refused upstream and counted; `refusals()` tells the count once, at the call's end.
 */
import type { LoggingLevel } from '@modelcontextprotocol/server';
import {
  accept,
  cancel,
  decline,
  type AbortSignalLike,
  type Answer,
  type Request,
} from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';
import { paramsOf, type ElicitParams } from './elicitParams';

/** The longest upstream key passed through to the host (the task id bound of the bridge). */
export const MAX_KEY_LENGTH = 256;

interface Asked {
  readonly key: string;
  /** Aborted once the question is settled, however (withdraws a push to the host). */
  readonly signal: AbortSignal;
}

/** An elicitation of the upstream, waiting for the host. */
export interface Elicitation extends Asked {
  readonly method: 'elicitation/create';
  readonly request: Request;
  readonly params: ElicitParams;
  /** Answer it upstream (once; later calls do nothing). */
  settle(answer: Answer): void;
}

/** A sampling/createMessage or roots/list of the upstream, waiting for the host. */
export interface HostRequest extends Asked {
  readonly method: 'sampling/createMessage' | 'roots/list';
  readonly params: Record<string, unknown>;
  /** The host's result, as it sent it (the upstream checks it). */
  respond(result: unknown): void;
  /** The host did not or cannot answer: the upstream's request fails with `error`. */
  refuse(error: unknown): void;
}

/** A question of the upstream, waiting for the host. */
export type Question = Elicitation | HostRequest;

/** The host's result for `question` goes upstream. */
export function respond(question: Question, result: unknown): void {
  if (question.method === 'elicitation/create') question.settle(answerOf(question, result));
  else question.respond(result);
}

/** The question ends unanswered (an elicitation is cancelled, a sampling or roots fails). */
export function withdraw(question: Question, reason: unknown): void {
  if (question.method === 'elicitation/create') question.settle(cancel(question.request));
  else question.refuse(reason);
}

/** What the call has for the host next. */
export type Step =
  | { kind: 'done'; result: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'questions'; questions: Question[] };

/** The upstream side of a call: `run(signal, ask, onprogress)` makes the upstream call. */
export type UpstreamRun = (
  signal: AbortSignal,
  progress: (params: { progress: number; total?: number; message?: string }) => void,
) => Promise<unknown>;

/** The Answer of a host's ElicitResult (anything malformed counts as cancel). */
export function answerOf(question: Elicitation, result: unknown): Answer {
  if (!isRecord(result)) return cancel(question.request);
  if (result['action'] === 'decline') return decline(question.request);
  if (result['action'] !== 'accept') return cancel(question.request);
  if (question.params.mode === 'url') return accept(question.request);
  const content = result['content'];
  return accept(question.request, isRecord(content) ? content : {});
}

export class GatewayCall {
  readonly #abort = new AbortController();
  /** Raised and not yet given to the host, by key, in the order they came. */
  readonly #queued = new Map<string, Question>();
  /** Given to the host and not yet settled, by key, in the order they came. */
  readonly #asked = new Map<string, Question>();
  /** How many questions this call refused, by reason (told once: see refusals()). */
  readonly #refused = new Map<string, number>();
  #outcome: Step | undefined;
  #wake: Array<() => void> = [];
  #keys = 0;
  /** The host's last retry left some of the questions it was given unanswered. */
  #unanswered = false;
  /** Answers a host sent before any question (see answerFirstRound); taken by the first round. */
  #early: Record<string, unknown> | undefined;
  /** The questions asked under the upstream's own key (the only ones an early answer can name). */
  readonly #ownKeyed = new WeakSet<Question>();
  /** The host leg's progress sink (each leg of a modern host has its own token). */
  progress: ((params: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** The log level the host asked for at the call's start (none: no log lines; logging.ts). */
  logLevel: LoggingLevel | undefined;
  /** The host leg's sink of the upstream's log lines for this call. */
  log: ((params: Record<string, unknown>) => void) | undefined;
  /** The host's arguments of the call (what names the call to a page question's fingerprint). */
  arguments: unknown;
  /** A 2025 server's -32042 goes to the host as it is (a 2025 host with URL mode), not asked. */
  urlRequiredPassesThrough = false;
  /** The round of questions the host was last given (a sealed state names it). */
  round = 0;

  constructor(
    readonly id: string,
    readonly method: string,
    readonly name: string,
    readonly maxQuestions: number,
  ) {}

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get ended(): boolean {
    return this.#outcome !== undefined;
  }

  run(upstream: UpstreamRun): this {
    upstream(this.#abort.signal, (params) => this.progress?.(params)).then(
      (result) => this.#finish({ kind: 'done', result }),
      (error: unknown) => this.#finish({ kind: 'failed', error }),
    );
    return this;
  }

  /**
   * The waitFor of this call's questions (the bridge asks; the host answers); `key` is the
   * upstream's own key of the question, `raw` its params as the upstream sent them.
   */
  ask(
    request: Request,
    signal?: AbortSignalLike,
    raw?: Record<string, unknown>,
    key?: string,
  ): Promise<Answer> {
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.resolve(cancel(request, refused));
    return new Promise<Answer>((resolve) => {
      const [slot, withdrawn, done] = this.#slot(key, signal, () =>
        question.settle(cancel(request)),
      );
      const question: Elicitation = {
        key: slot,
        method: 'elicitation/create',
        request,
        params: paramsOf(request, raw),
        signal: withdrawn.signal,
        settle: (answer) => done() && resolve(answer),
      };
      if (slot === key) this.#ownKeyed.add(question);
      this.#enqueue(question, signal);
    });
  }

  /** The upstream's sampling/createMessage or roots/list, relayed to the host as a question. */
  relay(
    method: HostRequest['method'],
    params: Record<string, unknown>,
    signal?: AbortSignalLike,
    key?: string,
  ): Promise<Record<string, unknown>> {
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(refused);
    return new Promise((resolve, reject) => {
      const [slot, withdrawn, done] = this.#slot(key, signal, () =>
        question.refuse(new Error(`${method} was withdrawn`)),
      );
      const question: HostRequest = {
        key: slot,
        method,
        params,
        signal: withdrawn.signal,
        respond: (result) => done() && resolve(isRecord(result) ? result : {}),
        refuse: (error) => done() && reject(error),
      };
      if (slot === key) this.#ownKeyed.add(question);
      this.#enqueue(question, signal);
    });
  }

  /** Why a new question cannot be asked now (the call ended, or has too many open); counted. */
  #refusal(): Error | undefined {
    let reason: string;
    if (this.#outcome !== undefined || this.#abort.signal.aborted)
      reason = 'the call that asked ended';
    else if (this.#queued.size + this.#asked.size >= this.maxQuestions)
      reason = 'too many open questions in one call';
    else return undefined;
    this.#refused.set(reason, (this.#refused.get(reason) ?? 0) + 1);
    return new Error(reason);
  }

  /**
   * One line for the operator saying how many questions this call refused upstream and why (none
   * when it refused none): told once per call, so a server flooding questions cannot flood the log.
   */
  refusals(): string | undefined {
    if (this.#refused.size === 0) return undefined;
    let total = 0;
    const reasons: string[] = [];
    for (const [reason, count] of this.#refused) {
      total += count;
      const bound = reason.startsWith('too many') ? ` (maxQuestions ${this.maxQuestions})` : '';
      reasons.push(`${count} ${reason}${bound}`);
    }
    const questions = total === 1 ? 'question' : 'questions';
    return `${this.method} ${this.name} refused ${total} ${questions} upstream: ${reasons.join('; ')}`;
  }

  /** Whether a question under `key` is open in this call (queued or given to the host). */
  #isOpen(key: string): boolean {
    return this.#asked.has(key) || this.#queued.has(key);
  }

  /** The upstream's key when it can be passed through, else a gateway key not open now. */
  #keyFor(wanted: string | undefined): string {
    // `__proto__` cannot come back: the SDK's parse of inputResponses makes it the prototype.
    if (
      wanted !== undefined &&
      wanted.length <= MAX_KEY_LENGTH &&
      wanted !== '__proto__' &&
      !this.#isOpen(wanted)
    )
      return wanted;
    let key: string;
    do key = `q${++this.#keys}`;
    while (this.#isOpen(key));
    return key;
  }

  /**
   * A question's key (`wanted`, the upstream's, when it can be kept), the controller its settling
   * aborts and `done` (true once: unlinks it from the call and from the asker's signal, whose abort
   * ends it through `onAbort`).
   */
  #slot(wanted: string | undefined, signal: AbortSignalLike | undefined, onAbort: () => void) {
    const key = this.#keyFor(wanted);
    const withdrawn = new AbortController();
    const done = () => {
      if (withdrawn.signal.aborted) return false;
      withdrawn.abort();
      this.#asked.delete(key);
      this.#queued.delete(key);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    if (!signal?.aborted) signal?.addEventListener('abort', onAbort, { once: true });
    return [key, withdrawn, done] as const;
  }

  #enqueue(question: Question, signal: AbortSignalLike | undefined): void {
    if (signal?.aborted) return withdraw(question, new Error('the asker gave up'));
    this.#queued.set(question.key, question);
    this.#notify();
  }

  /**
   * The next thing for the host: the call's outcome, or its open questions (the new ones and those
   * the host was given and has not answered). Questions raised together come in one step.
   */
  async next(): Promise<Step> {
    for (;;) {
      if (this.#outcome !== undefined) return this.#outcome;
      if (this.#unanswered) {
        // The host's retry left questions unanswered (a partial or state-only retry): ask again.
        this.#unanswered = false;
        if (this.#asked.size > 0 && this.#queued.size === 0)
          return { kind: 'questions', questions: [...this.#asked.values()] };
      }
      if (this.#queued.size > 0) {
        // Let the questions of one upstream round (asked in the same turn) join this step.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#outcome !== undefined) return this.#outcome;
        for (const [key, question] of this.#queued) this.#asked.set(key, question);
        this.#queued.clear();
        this.#takeEarlyAnswers();
        if (this.#asked.size > 0)
          return { kind: 'questions', questions: [...this.#asked.values()] };
        continue;
      }
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  /**
   * The host's inputResponses: each known key answers its question; unknown keys are ignored, and
   * the questions left unanswered are the host's again at the next step.
   */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, question] of [...this.#asked]) {
      if (responses !== undefined && Object.hasOwn(responses, key))
        respond(question, responses[key]);
      else this.#unanswered = true;
    }
  }

  /**
   * The inputResponses a same-era host sent on its first call, with no requestState (answers it
   * already has, e.g. from an earlier attempt): the upstream's first round takes those whose key
   * is one of its questions' own upstream keys, as the upstream itself would have; the others are
   * ignored. Looked up per question (own keys only), so the host's map is never walked.
   */
  answerFirstRound(responses: Record<string, unknown> | undefined): void {
    if (this.round === 0 && this.#asked.size === 0) this.#early = responses;
  }

  /** The first round's questions an early answer names are answered now, not given to the host. */
  #takeEarlyAnswers(): void {
    const early = this.#early;
    this.#early = undefined;
    if (early === undefined) return;
    for (const question of [...this.#asked.values()])
      if (this.#ownKeyed.has(question) && Object.hasOwn(early, question.key))
        respond(question, early[question.key]);
  }

  /** End the call: the upstream call is aborted, its open questions answered cancel. */
  cancel(reason: unknown): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(reason);
    for (const question of [...this.#queued.values(), ...this.#asked.values()])
      withdraw(question, reason);
    this.#finish({ kind: 'failed', error: reason });
  }

  #finish(step: Step): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = step;
    this.#notify();
  }

  #notify(): void {
    for (const wake of this.#wake.splice(0)) wake();
  }
}
