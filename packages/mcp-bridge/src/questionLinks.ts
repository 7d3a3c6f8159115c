/**
 * The question registry of an attached client, used by both eras: every question that reaches the
 * registered handler is opened here (and closed once answered), so detaching ends them all, and
 * the bridge's own calls follow it (`follow`) for the same reason.
 *
 * Links pushed questions (legacy era) to the bridge calls they can belong to, so that a question
 * whose call is over stops waiting: its waitFor signal aborts and the push is answered `cancel`.
 *
 * The wire names no call. A 2025 server's pushed `elicitation/create` carries no reference to the
 * tools/call it serves: checked against the v2 and v1 SDKs (client and server), the push's
 * `_meta.progressToken`, when present, is the server's own token for the push, and neither client
 * exposes the Streamable HTTP stream a push arrived on (stdio has none). So the candidates of a
 * question are the bridge calls in flight on the connection when it arrived.
 *
 * Invariants:
 * - A question is aborted once every candidate has ended (settled in any way, or its signal
 *   aborted). With one candidate that is simply "its call ended"; with several, no single call's
 *   end cancels it, because it may belong to another call that is still running.
 * - A question with no candidate (no bridge call in flight, or a modern-era handler call) is
 *   aborted only by the SDK (the server cancelled it, the connection closed) or by `abortAll`.
 * - A call with its own question options (waitFor, modes, maxAttempts) is never in flight with
 *   another bridge call, so its questions are always attributed to it: `beginCall` refuses the
 *   overlap before anything is sent.
 */
import type { AbortSignalLike, Request, RequestOrigin, WaitFor } from '@waitfor/core';
import { BridgeError } from './bridgeError';
import type { ElicitationMode } from './capabilities';
import type { CallInfo } from './extension';
import type { BridgeLimits } from './limits';
import { isAborted, linkedController, type ControllerLike } from '@waitfor/runtime';

/** A question the server sent to the registered handler, scoped by its era's rules. */
export interface PushedQuestion {
  /** Aborts when the question can no longer be used (the SDK aborted it, its call ended, detach). */
  readonly signal: AbortSignalLike;
  readonly origin: RequestOrigin;
  /** Question options the call it belongs to brought (legacy era, one call in flight). */
  readonly own?: QuestionOptions | undefined;
  /** The extensions' `inboundRequest` rewrite of the Request, if any has one. */
  readonly rewrite?: ((request: Request) => Request) | undefined;
  /** The question settled: unlink it. */
  close(): void;
}

/** What a legacy call sets for the questions attributed to it, instead of the attachment's. */
export interface QuestionOptions {
  waitFor: WaitFor;
  modes: readonly ElicitationMode[];
  maxAttempts: number;
  limits: BridgeLimits;
}

/** A bridge call in flight, as its questions see it. */
export interface LiveCall {
  info: CallInfo;
  /** Set when the call brought its own question options. */
  own: QuestionOptions | undefined;
  /** Its open questions: the call's end counts down theirs. */
  questions: Set<LinkedQuestion>;
}

/** The links of one attached client. */
export interface QuestionLinks {
  /** A bridge call goes out; returns `end`, to call once it settles (idempotent). */
  beginCall(call: CallInfo, own?: QuestionOptions): () => void;
  /** A question arrived; `link: false` keeps it apart from the calls (modern-era handler calls). */
  openQuestion(sdkSignal: AbortSignalLike | undefined, link: boolean): LinkedQuestion;
  /**
   * A bridge call of either era stops serving the person with `abortAll` (at once if it already
   * ran); returns the unlink. The calls join the set `abortAll` walks: one walk, not a listener per
   * call on one signal (Node warns past 10).
   */
  follow(call: ControllerLike): () => void;
  /** Abort every open question and every call following the links (the attachment is going away). */
  abortAll(reason: unknown): void;
}

/** The candidates of a question no bridge call was in flight for (shared: never written). */
const noCalls: readonly LiveCall[] = Object.freeze([]);

/**
 * One pushed question as linked to the calls it can belong to: its controller (a real
 * AbortController following the SDK's signal) and its links. The era's handler fills in who asks
 * (`origin`) and what the one call in flight brought (`own`, `rewrite`).
 */
export class LinkedQuestion implements PushedQuestion, ControllerLike {
  /** The bridge calls in flight when it arrived (empty when it was not linked). */
  calls: readonly LiveCall[] = noCalls;
  /** How many of `calls` have not ended yet. */
  running = 0;
  origin!: RequestOrigin;
  own: QuestionOptions | undefined = undefined;
  rewrite: ((request: Request) => Request) | undefined = undefined;
  /** Its place in the open list (-1 once closed): removed by a swap, no set to churn. */
  slot: number;
  readonly #open: LinkedQuestion[];
  readonly #controller: ReturnType<typeof linkedController>;

  constructor(sdkSignal: AbortSignalLike | undefined, open: LinkedQuestion[]) {
    // Aborted with the SDK's signal (the server cancelled, the connection closed): one listener on
    // it, removed once the question closes.
    this.#controller = linkedController(sdkSignal);
    this.#open = open;
    this.slot = open.push(this) - 1;
  }

  /** Aborts when the question can no longer be used: a real AbortSignal, handed to the host as is. */
  get signal(): AbortSignalLike {
    return this.#controller.signal;
  }

  /** End the question (its call ended, or the attachment is going away). */
  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  /** The question settled: unlink it (idempotent). */
  close(): void {
    const open = this.#open;
    if (this.slot < 0) return;
    const last = open.pop()!;
    if (last !== this) {
      open[this.slot] = last;
      last.slot = this.slot;
    }
    this.slot = -1;
    for (const call of this.calls) call.questions.delete(this);
    this.#controller.dispose();
  }
}

/** Fresh, empty links for one attached client. */
export function createQuestionLinks(): QuestionLinks {
  const calls = new Set<LiveCall>();
  /** Open questions, and the calls following the links: what abortAll walks. */
  const open: LinkedQuestion[] = [];
  const following = new Set<ControllerLike>();
  let detached: { reason: unknown } | undefined;

  return {
    beginCall(info, own) {
      // A call with its own options runs alone, so it is the first (and only) one when it runs.
      const [first] = calls;
      if (own ? calls.size : first?.own)
        throw new BridgeError(
          'invalid_options',
          'Legacy era: a call with own waitFor/modes/maxAttempts/limits must run alone',
        );
      const live: LiveCall = { info, own, questions: new Set() };
      calls.add(live);
      const signal = info.signal;
      // A call has ended once it left `calls` (idempotent: only the first end finds it there).
      // Each of its questions counts down; one whose every candidate has ended is aborted. A
      // count, not a scan: ending a call costs its own questions, however many are open.
      const end = () => {
        if (!calls.delete(live)) return;
        signal?.removeEventListener('abort', end);
        for (const question of live.questions)
          if (--question.running === 0)
            question.abort(new BridgeError('aborted', 'The call that asked this ended'));
      };
      // An abort ends the call at once for its questions, before the SDK call has unwound.
      if (isAborted(signal)) end();
      else signal?.addEventListener('abort', end);
      return end;
    },

    openQuestion(sdkSignal, link) {
      const question = new LinkedQuestion(sdkSignal, open);
      if (link && calls.size > 0) {
        question.calls = [...calls];
        question.running = calls.size;
        for (const candidate of calls) candidate.questions.add(question);
      }
      return question;
    },

    follow(call) {
      if (detached) call.abort(detached.reason);
      following.add(call);
      return () => void following.delete(call);
    },

    abortAll(reason) {
      detached = { reason };
      for (const question of [...open]) question.abort(reason);
      for (const call of following) call.abort(reason);
    },
  };
}
