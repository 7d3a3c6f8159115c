/**
 * The questions the gateway asks the person itself (its host cannot ask them), kept in the store.
 *
 * Each question is parked as a durable call of the store whose only work is to hold it: its row
 * belongs to no process, so it is listed on the page until it is answered, withdrawn or expired,
 * across restarts of the gateway (same data directory). Its id is a fingerprint of the host's call
 * (method, name, arguments) and of the question (mode, message, schema or URL):
 * - while a call waits, the answer given on the page settles the question upstream;
 * - after a restart the upstream call is gone (it lived in the old process), and so is the host's
 *   call; the host's re-issued call asks the upstream again, the upstream asks the same question
 *   again, and the fingerprint finds it: still open (the re-issued call waits for it, nothing new
 *   is listed) or answered after the restart (the answer was kept in the store, keptAnswers.ts,
 *   and the re-issued call uses it at once, once).
 * Identical questions of identical calls share one row and one answer.
 */
import { createHash } from 'node:crypto';
import { cancel, decline, type Answer, type Request } from '@waitfor/core';
import {
  isStoreError,
  type DurableCalls,
  type DurableCallsOptions,
  type Store,
  type StoreInbox,
} from '@waitfor/store';
import type { Elicitation, GatewayCall } from '../call';
import type { HostSide } from '../hostSide';
import { KeptAnswers, keptBounds, keptScope, keptServerKey } from './keptAnswers';

/** The scope of every page question in the gateway's store. */
export const pageScope = 'waitfor-gateway';
const serverKey = 'page';

/** Policies of the page. */
export interface PagePolicy {
  /** Tools (or prompt names, resource URIs) whose questions are declined without asking. */
  decline?: readonly string[];
  /** The modes the page asks (default both); a question in another mode is declined. */
  modes?: ReadonlyArray<'form' | 'url'>;
  /** How long a question waits on the page; then it expires upstream (default: no bound). */
  questionTimeoutMs?: number;
  /** How often a waiting host call gets a progress notification, where it sent a token (default 15 s). */
  keepAliveMs?: number;
  /**
   * Answers given on the page while no call waited (after a restart) are kept in the store for the
   * host's re-issued call: at most this many (default 256; past it the oldest is dropped, logged) …
   */
  maxKeptAnswers?: number;
  /** … each for this long (default a day; then it is dropped, logged, and the call asks again). */
  keptAnswerMs?: number;
}

/** What the page tells its owner: a question was asked, and anything else worth a line. */
export interface PageEvents {
  asked(request: Request): void;
  log(line: string): void;
}

/**
 * A durable caller whose calls only hold the question they are given; once it ended, `ended` gets
 * each question and its answer (a rejection lets the store resume the call again later).
 */
function holding(
  ended: (question: Request, answer: Answer) => Promise<void> | void,
): Awaited<ReturnType<DurableCallsOptions['clientFor']>> {
  return {
    callTool: (async (params: { name: string; arguments?: { request?: Request } }) => ({
      status: 'suspended',
      suspension: {
        version: 2,
        method: 'tools/call',
        params: { name: params.name },
        inputRequests: {},
        requests: [params.arguments?.request],
        round: 1,
      },
    })) as never,
    resume: async (suspension, answers) => {
      for (const [index, answer] of answers.entries()) {
        const question = suspension.requests[index];
        if (question !== undefined) await ended(question, answer);
      }
      return { status: 'complete', result: {} };
    },
  };
}

/** Sorted keys all the way down: one text for equal values, whatever their key order. */
const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
};

/** The id of a question: the same for the same question of the same call, in any process. */
export function fingerprint(call: GatewayCall, question: Elicitation): string {
  const { params } = question;
  const asked = params.mode === 'url' ? params.url : params.requestedSchema;
  const text = JSON.stringify(
    canonical([call.method, call.name, call.arguments ?? null, params.mode, params.message, asked]),
  );
  return `gw-${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}

/** The gateway's page questions over one store. */
export class PageQuestions {
  readonly #waiters = new Map<string, Set<(answer: Answer) => void>>();
  readonly #kept: KeptAnswers;
  readonly #seen = new WeakSet<Elicitation>();
  readonly #decline: Set<string>;
  readonly #modes: Set<string>;
  readonly #calls: DurableCalls;
  #keeping = false;

  constructor(
    store: Store,
    readonly inbox: StoreInbox,
    keptInbox: StoreInbox,
    readonly policy: PagePolicy,
    private readonly events: PageEvents,
  ) {
    this.#decline = new Set(policy.decline ?? []);
    this.#modes = new Set(policy.modes ?? ['form', 'url']);
    // The store resumes a parked call once its question ended; resuming hands over its answer.
    const pageCaller = holding((question, answer) => this.#answered(question, answer));
    const keptCaller = holding((kept, end) => this.#kept.ended(kept, end));
    this.#calls = store.durableCalls({
      clientFor: (key) => (key === keptServerKey ? keptCaller : pageCaller),
    });
    this.#kept = new KeptAnswers(
      keptInbox,
      (request) =>
        this.#calls.callTool(keptScope, keptServerKey, { name: 'keep', arguments: { request } }),
      keptBounds(policy),
      events.log,
    );
  }

  /** The seam's entry: ask `question` on the page, or decline it by policy. */
  cannotAsk = (side: HostSide, call: GatewayCall, question: Elicitation): void => {
    if (this.#seen.has(question)) return;
    this.#seen.add(question);
    const refused = this.#decline.has(call.name)
      ? `${call.name} is on the decline list`
      : !this.#modes.has(question.params.mode)
        ? `the page does not ask ${question.params.mode} questions`
        : undefined;
    if (refused !== undefined) {
      side.log(
        `declined upstream "${question.params.message}" (${call.method} ${call.name}): ${refused}`,
      );
      return question.settle(decline(question.request));
    }
    void this.#ask(side, call, question).catch((error: unknown) => {
      side.log(`the page could not keep a question: ${String(error)}; cancelled upstream`);
      question.settle(cancel(question.request));
    });
  };

  /** Settles every call waiting for the question `answer.id`; false when none waits. */
  #handOver(answer: Answer): boolean {
    const waiters = this.#waiters.get(answer.id);
    if (waiters === undefined || waiters.size === 0) return false;
    for (const waiter of [...waiters]) waiter(answer);
    return true;
  }

  async #answered(question: Request, answer: Answer): Promise<void> {
    if (this.#handOver(answer)) return;
    // Nobody waits (it was answered after a restart): kept in the store for the re-issued call. A
    // question withdrawn or expired has nothing to keep.
    if (!answer.ok && answer.reason !== 'declined') return;
    await this.#kept.keep(question, answer);
    // A call re-issued while the answer was being kept waits for it by now: it takes it.
    if (!this.#waiters.has(answer.id)) return;
    const taken = await this.#kept.take(answer.id);
    if (taken !== undefined) this.#handOver(taken);
  }

  async #ask(side: HostSide, call: GatewayCall, question: Elicitation): Promise<void> {
    const id = fingerprint(call, question);
    const stopKeepAlive = keepAlive(side, call, this.policy.keepAliveMs ?? 15_000);
    const waiters = this.#waiters.get(id) ?? new Set();
    this.#waiters.set(id, waiters);
    const done = (answer: Answer) => {
      waiters.delete(done);
      if (waiters.size === 0) this.#waiters.delete(id);
      // Answered through an earlier row of the same question (answered before a crash, resumed
      // late or kept): a copy still listed has nobody left to wait for it. On the row just
      // answered this changes nothing (the store ends an open row only).
      if (waiters.size === 0 && !this.#keeping && this.inbox.get(id) !== undefined)
        this.inbox.cancel(id);
      question.signal.removeEventListener('abort', withdrawn);
      stopKeepAlive();
      question.settle({ ...answer, id: question.request.id });
    };
    // The call ended first (the host cancelled or timed out, the gateway closed): the question
    // leaves the page, unless another waiting call shares it.
    const withdrawn = () => {
      stopKeepAlive();
      waiters.delete(done);
      if (waiters.size > 0 || this.#keeping) return;
      this.#waiters.delete(id);
      this.#withdraw(id);
    };
    waiters.add(done);
    question.signal.addEventListener('abort', withdrawn, { once: true });
    // Waiting before looking: an answer kept from now on finds this call (see #answered).
    const kept = question.signal.aborted ? undefined : await this.#kept.take(id);
    if (kept !== undefined) {
      side.log(
        `answered from the page before the call was re-issued: "${question.params.message}"`,
      );
      return done(kept);
    }
    // Settled meanwhile (the answer of a question still parked), or withdrawn: nothing to park.
    if (!waiters.has(done)) return;
    if (this.inbox.getSnapshot().some((open) => open.id === id)) return;
    const { expiresAt: _own, ...request } = question.request;
    const timeout = this.policy.questionTimeoutMs;
    const parked: Request = {
      ...request,
      id,
      ...(timeout === undefined ? {} : { expiresAt: new Date(Date.now() + timeout).toISOString() }),
    };
    try {
      await this.#calls.callTool(pageScope, serverKey, {
        name: 'ask',
        arguments: { request: parked },
      });
    } catch (error) {
      // Parked by an identical call a moment ago (not listed here yet): this call waits for it too.
      if (!(isStoreError(error) && error.code === 'call_failed')) throw error;
    }
    if (question.signal.aborted) return this.#withdraw(id);
    this.events.asked(parked);
  }

  /** Ends a question for everyone (the page tells the person it was withdrawn). */
  #withdraw(id: string): void {
    if (this.#keeping || this.#waiters.has(id) || this.inbox.cancel(id)) return;
    // Not listed here yet (its notice is on its way): look again, then end it.
    void this.inbox.refresh().then(
      () => {
        if (!this.#keeping && !this.#waiters.has(id)) this.inbox.cancel(id);
      },
      () => undefined,
    );
  }

  /**
   * From now on a call that ends leaves its question on the page: the process is ending (its host
   * went away or it was told to stop), and the host's re-issued call after a restart finds it.
   */
  keep(): void {
    this.#keeping = true;
  }

  close(): void {
    this.keep();
    this.#calls.close();
  }
}

/** Progress notifications toward the host while its call waits for the person (where it sent a token). */
function keepAlive(side: HostSide, call: GatewayCall, everyMs: number): () => void {
  let beats = 0;
  let timer: unknown;
  const beat = () => {
    beats += 1;
    call.progress?.({ progress: beats, message: 'waiting for the person to answer on the page' });
    timer = side.clock.setTimeout(beat, everyMs);
  };
  timer = side.clock.setTimeout(beat, everyMs);
  return () => side.clock.clearTimeout(timer);
}
