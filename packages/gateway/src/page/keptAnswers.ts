/**
 * Answers given on the page while no call waited for them (the gateway restarted since the
 * question was asked), kept in the store until the host's re-issued call uses them.
 *
 * Each is an open question of a scope of its own (never listed on the page), parked as a durable
 * call like the page's questions, so it outlives any number of restarts: its id is the question's
 * fingerprint, its data the answer. Every change is one conditional statement of the store:
 * - kept: inserted open (an answer already kept under that id is not kept twice);
 * - used: the re-issued call answers it (open → answered), so one call uses it, once, and the
 *   answer's data leaves the store with it;
 * - dropped: it expires `keptAnswerMs` after it was kept (open → expired), and past
 *   `maxKeptAnswers` the oldest is withdrawn (open → cancelled). Either way the gateway says so on
 *   its log, and the re-issued call asks the person again: an answer is never used late or lost
 *   without a word, at worst the person is asked twice.
 */
import { accept, parseAnswer, type Answer, type Request } from '@waitfor/core';
import { isStoreError, type StoreInbox } from '@waitfor/store';

/** The scope of the kept answers in the gateway's store (the page lists another one). */
export const keptScope = 'waitfor-gateway:kept';
/** The server key of the durable calls that hold kept answers. */
export const keptServerKey = 'kept';
/** Kept answers at most, by default (the oldest goes). */
export const defaultMaxKeptAnswers = 256;
/** How long an answer is kept for its call, by default: a day (a later identical call is asked anew). */
export const defaultKeptAnswerMs = 24 * 60 * 60 * 1000;

const maxPromptLength = 200;

/** How many kept answers, and for how long. */
export interface KeptAnswerBounds {
  most: number;
  forMs: number;
}

/** The bounds `options` asks for, with their defaults; throws a TypeError for ones that bound nothing. */
export function keptBounds(options: {
  maxKeptAnswers?: number;
  keptAnswerMs?: number;
}): KeptAnswerBounds {
  const most = options.maxKeptAnswers ?? defaultMaxKeptAnswers;
  const forMs = options.keptAnswerMs ?? defaultKeptAnswerMs;
  if (!Number.isSafeInteger(most) || most < 0)
    throw new TypeError('maxKeptAnswers must be an integer ≥ 0');
  // At most what a Date holds from now (an expiry past it could not be written).
  if (!(forMs >= 0 && forMs <= 8.64e15 - Date.now()))
    throw new TypeError('keptAnswerMs must be a number of milliseconds ≥ 0');
  return { most, forMs };
}

/** The answer a kept question holds, or undefined when it holds none this copy can read. */
function answerIn(kept: Request): Answer | undefined {
  try {
    const answer = parseAnswer(kept.data?.['answer']);
    return answer.id === kept.id ? answer : undefined;
  } catch {
    return undefined;
  }
}

/** The kept answers of one store. */
export class KeptAnswers {
  constructor(
    private readonly inbox: StoreInbox,
    /** Parks a question as a durable call of `keptServerKey` in `keptScope`. */
    private readonly park: (request: Request) => Promise<unknown>,
    private readonly bounds: KeptAnswerBounds,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Keeps `answer` to `question` for the re-issued call; resolves once it is in the store (a
   * rejection leaves the question's own call to be resumed again: nothing is lost).
   */
  async keep(question: Request, answer: Answer): Promise<void> {
    const kept: Request = {
      id: question.id,
      kind: 'approval',
      // What the log names it by: a server's prompt may be long, the answer has to fit beside it.
      prompt: question.prompt.slice(0, maxPromptLength),
      data: { answer },
      expiresAt: new Date(Date.now() + this.bounds.forMs).toISOString(),
    };
    try {
      await this.park(kept);
    } catch (error) {
      // Kept already: a resume repeated after a crash, or a second answer to the same question.
      if (isStoreError(error) && error.code === 'call_failed') return;
      throw error;
    }
    this.log(`answered on the page: "${question.prompt}" (kept for the host's re-issued call)`);
    await this.trim();
  }

  /** Past the bound, the oldest kept answers are withdrawn, each with one statement. */
  private async trim(): Promise<void> {
    await this.inbox.refresh();
    const open = this.inbox.getSnapshot();
    for (const request of open.slice(0, Math.max(0, open.length - this.bounds.most)))
      if (this.inbox.cancel(request.id))
        this.log(
          `an answer given on the page to "${request.prompt}" was dropped unused: more than ` +
            `${this.bounds.most} answers wait for their calls; a re-issued call asks again`,
        );
  }

  /** Takes the answer kept for the question `id` (gone for everyone once taken), or undefined. */
  async take(id: string): Promise<Answer | undefined> {
    // Kept a moment ago by another turn of this process: not listed here until its notice.
    if (this.inbox.get(id) === undefined) await this.inbox.refresh();
    const kept = this.inbox.get(id);
    const answer = kept && answerIn(kept);
    if (kept === undefined || answer === undefined) return undefined;
    // The first taker wins (open → answered); a second identical call asks the person again.
    return (await this.inbox.submit(accept(kept))) ? answer : undefined;
  }

  /** A kept answer ended: taken (nothing to say), withdrawn by the bound (said then), or expired. */
  ended(kept: Request, end: Answer): void {
    if (end.reason === 'expired')
      this.log(
        `an answer given on the page to "${kept.prompt}" waited ${Math.round(this.bounds.forMs / 60_000)} ` +
          `min for its call and is dropped unused; a re-issued call asks again`,
      );
  }
}
