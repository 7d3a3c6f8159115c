/**
 * One bridge call, checked and resolved, as the era that runs it (and the task route it may end
 * in) sees it. Types only, below the eras and the task drivers alike.
 */
import type { CallOptions, CallSettings } from './callOptions';
import type { CallInfo } from './extension';
import type { QuestionOptions } from './questionLinks';

/** Where a modern-era call starts: a first call, or a resumed retry. */
export interface LoopStart {
  /** The original params (without inputResponses/requestState). */
  params: Record<string, unknown>;
  /** The responses and state of the retry to send first (resume); absent for a first call. */
  retry?: { responses: Record<string, unknown>; requestState: string | undefined };
  /** Rounds already seen (resume). */
  round: number;
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
  /**
   * 'handle' (bridge.tasks.start): a call the server answers with a task resolves at once with
   * that task (its CreateTaskResult, `resultType: "task"`), instead of waiting for it.
   */
  readonly taskMode?: 'wait' | 'handle' | undefined;
  /** The question options the call brings itself (legacy era: it must run alone). */
  readonly own: QuestionOptions | undefined;
  /** Where a resumed call starts (modern era). */
  readonly start: ((job: CallJob) => Promise<LoopStart>) | undefined;
}
