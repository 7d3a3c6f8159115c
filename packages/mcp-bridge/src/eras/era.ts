/**
 * The one interface both eras implement, chosen once per connection (`eraFor`). Each era keeps its
 * jobs in files of the same names:
 *
 * - `handler.ts`: how a question reaching the registered handler is scoped and attributed;
 * - `options.ts`: what a call's options may be in this era (checked before anything is sent);
 * - `call.ts`: how one bridge call runs on the wire.
 */
import type { AbortSignalLike, Request, RequestOrigin } from '@waitfor/core';
import type { BridgeState } from '../bridgeState';
import type { CallOptions, CallSettings } from '../callOptions';
import type { InboundContext } from '../clientPort';
import type { CallInfo } from '../extension';
import type { QuestionOptions } from './legacy/questionLinks';
import type { LoopStart } from './modern/call';
import type { Suspension } from './modern/suspension';

/** How a call ends: its result, or (durable, modern era) a suspension until `resume`. */
export type CallOutcome =
  | { status: 'complete'; result: Record<string, unknown> }
  | { status: 'suspended'; suspension: Suspension };

/** A question the server sent to the registered handler, scoped to this era's rules. */
export interface PushedQuestion {
  /** Aborts when the question can no longer be used (the SDK aborted it, its call ended, detach). */
  readonly signal: AbortSignalLike;
  readonly origin: RequestOrigin;
  /** Question options the call it belongs to brought (legacy era, one call in flight). */
  readonly own?: QuestionOptions | undefined;
  /** Extension rewrite of the Request (legacy pushes only). */
  readonly rewrite?: ((request: Request) => Request) | undefined;
  /** The question settled: unlink it. */
  close(): void;
}

/** One bridge call, checked and resolved, as an era runs it. */
export interface CallJob {
  readonly settings: CallSettings;
  readonly options: CallOptions;
  /** The method and params (without the keys the modern loop owns), as extensions see them. */
  readonly info: CallInfo;
  readonly timeout: number;
  readonly maxRounds: number;
  readonly durable: boolean;
  /** The question options the call brings itself (legacy era: it must run alone). */
  readonly own: QuestionOptions | undefined;
  /** Where a resumed call starts (modern era). */
  readonly start: ((settings: CallSettings) => Promise<LoopStart>) | undefined;
}

/** What an era does; `eras/legacy` and `eras/modern` each export one. */
export interface Era {
  /** handler.ts: scope a question that reached the registered handler. */
  question(
    bridge: BridgeState,
    context: InboundContext,
    params: Record<string, unknown>,
  ): PushedQuestion;
  /** options.ts: refuse options this era cannot honour; returns a call's own question options. */
  checkCall(
    settings: CallSettings,
    options: CallOptions,
    durable: boolean,
  ): QuestionOptions | undefined;
  /** options.ts: whether a call may suspend (durable) and be resumed. */
  readonly durable: boolean;
  /** call.ts: link the call before any extension runs; returns its end. */
  beginCall?(job: CallJob): (() => void) | undefined;
  /** call.ts: run the call on the wire (the innermost step of the extensions' `aroundCall`). */
  call(job: CallJob): Promise<unknown>;
  /** call.ts: what `call` resolved to, as a call's outcome. */
  outcome(value: unknown): CallOutcome;
}

/** The origin of a call's questions: who asks, in which era, and for what (tool, prompt or resource). */
export const callOrigin = ({ serverName: server, era, method, params }: CallInfo): RequestOrigin =>
  method === 'tools/call'
    ? { server, era, tool: String(params['name']) }
    : method === 'prompts/get'
      ? { server, era, prompt: String(params['name']) }
      : { server, era, resource: String(params['uri']) };
