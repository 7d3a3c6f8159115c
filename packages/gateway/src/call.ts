/**
 * One host call (tools/call, prompts/get or resources/read) relayed upstream: the upstream call
 * runs on its own, and the questions it raises wait in this object until the host's side of the
 * gateway hands them to the host and brings the host's answers back. Questions are keyed q1, q2, …
 * (the keys of the host's inputRequests, never reused within the call).
 */
import {
  accept,
  cancel,
  decline,
  type AbortSignalLike,
  type Answer,
  type Request,
} from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';

/** Elicitation params as a host receives them (either era; `elicitationId` only toward a legacy host). */
export type ElicitParams =
  | { mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

/** A question of the upstream, waiting for the host. */
export interface Question {
  readonly key: string;
  readonly request: Request;
  readonly params: ElicitParams;
  /** Aborted once the question is settled, however (withdraws a push to the host). */
  readonly signal: AbortSignal;
  /** Answer it upstream (once; later calls do nothing). */
  settle(answer: Answer): void;
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

/** A question's params, from the Request the bridge made of it (its own params when it kept them). */
export function paramsOf(request: Request, raw?: Record<string, unknown>): ElicitParams {
  if (request.kind === 'authorization') {
    const params: ElicitParams = { mode: 'url', message: request.prompt, url: request.url ?? '' };
    if (typeof raw?.['elicitationId'] === 'string') params.elicitationId = raw['elicitationId'];
    return params;
  }
  const schema = request.data?.schema;
  return {
    mode: 'form',
    message: request.prompt,
    requestedSchema: isRecord(schema) ? schema : { type: 'object', properties: {} },
  };
}

/** The Answer of a host's ElicitResult (anything malformed counts as cancel). */
export function answerOf(question: Question, result: unknown): Answer {
  if (!isRecord(result)) return cancel(question.request);
  if (result['action'] === 'decline') return decline(question.request);
  if (result['action'] !== 'accept') return cancel(question.request);
  if (question.params.mode === 'url') return accept(question.request);
  const content = result['content'];
  return accept(question.request, isRecord(content) ? content : {});
}

export class GatewayCall {
  readonly #abort = new AbortController();
  readonly #queued: Question[] = [];
  readonly #asked = new Map<string, Question>();
  #outcome: Step | undefined;
  #wake: Array<() => void> = [];
  #keys = 0;
  /** The host leg's progress sink (each leg of a modern host has its own token). */
  progress: ((params: { progress: number; total?: number; message?: string }) => void) | undefined;
  /** The host's arguments of the call (what names the call to a page question's fingerprint). */
  arguments: unknown;
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

  /** The waitFor of this call's questions (the bridge asks; the host answers). */
  ask(request: Request, signal?: AbortSignalLike, raw?: Record<string, unknown>): Promise<Answer> {
    if (this.#outcome !== undefined || this.#abort.signal.aborted)
      return Promise.resolve(cancel(request));
    if (this.#queued.length + this.#asked.size >= this.maxQuestions)
      return Promise.resolve(cancel(request, new Error('too many open questions in one call')));
    return new Promise<Answer>((resolve) => {
      const withdrawn = new AbortController();
      const question: Question = {
        key: `q${++this.#keys}`,
        request,
        params: paramsOf(request, raw),
        signal: withdrawn.signal,
        settle: (answer) => {
          if (withdrawn.signal.aborted) return;
          withdrawn.abort();
          this.#asked.delete(question.key);
          const at = this.#queued.indexOf(question);
          if (at >= 0) this.#queued.splice(at, 1);
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      };
      const onAbort = () => question.settle(cancel(request));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queued.push(question);
      this.#notify();
    });
  }

  /**
   * The next thing for the host: the call's outcome, or its open questions (the new ones and those
   * the host was given and has not answered). Questions raised together come in one step.
   */
  async next(): Promise<Step> {
    for (;;) {
      if (this.#outcome !== undefined) return this.#outcome;
      if (this.#queued.length > 0) {
        // Let the questions of one upstream round (asked in the same turn) join this step.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#outcome !== undefined) return this.#outcome;
        for (const question of this.#queued.splice(0)) this.#asked.set(question.key, question);
        if (this.#asked.size > 0)
          return { kind: 'questions', questions: [...this.#asked.values()] };
        continue;
      }
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }

  /** The host's inputResponses: each known key answers its question; unknown keys are ignored. */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, question] of [...this.#asked]) {
      if (responses !== undefined && Object.hasOwn(responses, key))
        question.settle(answerOf(question, responses[key]));
    }
  }

  /** End the call: the upstream call is aborted, its open questions answered cancel. */
  cancel(reason: unknown): void {
    if (!this.#abort.signal.aborted) this.#abort.abort(reason);
    for (const question of [...this.#queued, ...this.#asked.values()])
      question.settle(cancel(question.request));
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
