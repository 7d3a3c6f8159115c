/**
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
 * - Each question is aborted at most once, and unlinked when it settles.
 */
import type { AbortSignalLike, WaitForContext } from '@waitfor/core';
import { BridgeError } from '../../bridgeError';
import type { CallInfo } from '../../extension';
import { createController, type ControllerLike } from '../../runtime';

/** One pushed question as linked to the calls it can belong to. */
export interface LinkedQuestion {
  /**
   * Aborts when the SDK's signal aborts, every candidate call has ended, or the links are torn
   * down. A light signal for the bridge's own checks and race; never handed to the host.
   */
  readonly state: AbortSignalLike;
  /**
   * What the host's handler receives: `signal`, the same abort as a real AbortSignal, is created
   * on first read, so a waitFor that ignores it costs no controller.
   */
  readonly context: WaitForContext & { readonly signal: AbortSignalLike };
  /** The bridge calls in flight when the question arrived (empty when it was not linked). */
  readonly calls: readonly CallInfo[];
  /** The question settled: unlink it. */
  close(): void;
}

/** The links of one attached client. */
export interface QuestionLinks {
  /** A bridge call went out; returns `end`, to call once it settles (idempotent). */
  beginCall(call: CallInfo): () => void;
  /** A question arrived; `link: false` keeps it apart from the calls (modern-era handler calls). */
  openQuestion(sdkSignal: AbortSignalLike | undefined, link: boolean): LinkedQuestion;
  /** Aborts once `abortAll` ran: calls of any era stop serving the person then. */
  readonly detached: AbortSignalLike;
  /** Abort every open question and `detached` (the attachment is going away). */
  abortAll(reason: unknown): void;
}

interface LiveCall {
  info: CallInfo;
  ended: boolean;
  questions: Set<Question>;
}

/** An open question, and the bridge's own light signal of it (aborted at most once). */
interface Question extends AbortSignalLike {
  candidates: readonly LiveCall[];
  aborted: boolean;
  reason: unknown;
  abort(reason: unknown): void;
}

const noCalls: readonly never[] = [];

const lazy = Symbol();

/**
 * What waitFor receives. `signal` stays an own enumerable property (a waitFor may spread the
 * context) but is an accessor that builds the AbortSignal on first read: Node builds one slowly
 * (microseconds, once most of the bridge's per-question work) and most questions are never
 * aborted. One shared descriptor: far cheaper per question than an object literal with a getter.
 */
const signalProperty: PropertyDescriptor = {
  enumerable: true,
  get(this: { [lazy]: () => AbortSignalLike }) {
    return this[lazy]();
  },
};

/** Fresh, empty links for one attached client. */
export function createQuestionLinks(): QuestionLinks {
  const calls = new Set<LiveCall>();
  const open = new Set<Question>();
  const detached = createController();

  return {
    beginCall(info) {
      const live: LiveCall = { info, ended: false, questions: new Set() };
      calls.add(live);
      const signal = info.signal;
      const end = () => {
        if (live.ended) return;
        live.ended = true;
        calls.delete(live);
        signal?.removeEventListener('abort', end);
        for (const question of [...live.questions]) {
          if (question.candidates.every((candidate) => candidate.ended)) {
            question.abort(
              new BridgeError(
                'aborted',
                `The ${info.method} that asked this question ended before it was answered`,
              ),
            );
          }
        }
      };
      // An abort ends the call at once for its questions, before the SDK call has unwound.
      if (signal?.aborted === true) end();
      else signal?.addEventListener('abort', end, { once: true });
      return end;
    },

    openQuestion(sdkSignal, link) {
      const candidates = link && calls.size > 0 ? [...calls] : noCalls;
      const listeners: Array<() => void> = [];
      let controller: ControllerLike | undefined;
      // The bridge watches this light signal; the real one exists once `context.signal` is read.
      const question: Question = {
        candidates,
        aborted: false,
        reason: undefined,
        addEventListener: (_type, listener) => void listeners.push(listener),
        // indexOf's -1 becomes a huge index (>>> 0), where splice removes nothing.
        removeEventListener: (_type, listener) =>
          void listeners.splice(listeners.indexOf(listener) >>> 0, 1),
        abort: (reason) => {
          if (question.aborted) return;
          question.aborted = true;
          question.reason = reason;
          controller?.abort(reason);
          for (const listener of listeners.splice(0)) listener();
        },
      };
      const onSdkAbort = () => question.abort(sdkSignal?.reason);
      if (sdkSignal?.aborted === true) onSdkAbort();
      else sdkSignal?.addEventListener('abort', onSdkAbort);
      for (const candidate of candidates) candidate.questions.add(question);
      open.add(question);
      const signal = () => {
        if (controller === undefined) {
          controller = createController();
          if (question.aborted) controller.abort(question.reason);
        }
        return controller.signal;
      };
      return {
        state: question,
        context: Object.defineProperty({ [lazy]: signal }, 'signal', signalProperty) as never,
        calls: candidates.length === 0 ? noCalls : candidates.map((candidate) => candidate.info),
        close: () => {
          for (const candidate of candidates) candidate.questions.delete(question);
          open.delete(question);
          sdkSignal?.removeEventListener('abort', onSdkAbort);
        },
      };
    },

    detached: detached.signal,

    abortAll(reason) {
      for (const question of [...open]) question.abort(reason);
      detached.abort(reason);
    },
  };
}
