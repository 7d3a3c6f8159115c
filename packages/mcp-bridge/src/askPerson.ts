/**
 * Ask the person one elicitation through the host's waitFor and produce the ElicitResult to send.
 *
 * Invariants: an invalid form answer is never sent — the same waitFor is asked again (fresh
 * Request id, `data.errors` per field, `data.values` = what the person gave) up to `maxAttempts`
 * times, then the question is answered `cancel`. An accept without data takes the schema defaults;
 * an accept with data is sent as given (coerced), never with defaults the person did not see — a
 * required field left empty is asked again. A URL-mode accept carries no content (consent only).
 *
 * Every question pays for this path, so the params and the schema are checked once per question,
 * and a waitFor that answers at once settles without an abort race or a listener on any signal.
 */
import {
  createRequestId,
  type AbortSignalLike,
  type Answer,
  type Request,
  type RequestOrigin,
  type WaitFor,
  type WaitForContext,
} from '@waitfor/core';
import {
  parseFormSchema,
  validateAnswerData,
  type FormLimits,
  type FormSchema,
} from '@waitfor/core/form';
import { reportCheck, type AskHooks } from './askHooks';
import { abortedError, BridgeError, messageOf } from './bridgeError';
import { hostSignal, isAborted } from '@waitfor/runtime';
import {
  answerToElicitResult,
  parseElicitationParams,
  requestOf,
  type ElicitationParams,
  type ElicitResult,
} from './mapping';

export type { AskHooks } from './askHooks';

/** Everything askPerson needs besides the params. */
export interface AskContext {
  waitFor: WaitFor;
  origin: RequestOrigin;
  /** Ends the wait: checked before and raced against waitFor, and handed to it. */
  signal?: AbortSignalLike | undefined;
  /** How many times a person may submit an invalid form before the question is cancelled (≥ 1). */
  maxAttempts: number;
  /** Extension rewrite of the Request (legacy pushes only). */
  rewrite?: ((request: Request) => Request) | undefined;
  hooks?: AskHooks | undefined;
}

/** Default number of submissions of an invalid form before the bridge answers cancel. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Elicitation params checked once, with the form's schema parsed (frozen copy). */
export interface CheckedQuestion {
  params: ElicitationParams;
  schema?: FormSchema;
}

/** Check params and (form mode) their schema within `limits`; throws 'invalid_params'. */
export function checkQuestion(params: unknown, limits?: Partial<FormLimits>): CheckedQuestion {
  return checkParsed(parseElicitationParams(params), limits);
}

/** `checkQuestion` for params already parsed: only the form's schema is left to check. */
export function checkParsed(
  parsed: ElicitationParams,
  limits?: Partial<FormLimits>,
): CheckedQuestion {
  if (parsed.mode !== 'form') return { params: parsed };
  try {
    return { params: parsed, schema: parseFormSchema(parsed.requestedSchema, { limits }) };
  } catch (error) {
    throw new BridgeError('invalid_params', `Invalid requestedSchema: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

function firstRequest(question: CheckedQuestion, origin: RequestOrigin): Request {
  const request = requestOf(question.params);
  // requestOf made `data` for this Request alone: the origin joins it, no copy.
  (request.data ??= {})['origin'] = origin;
  return request;
}

/** Build the first Request for elicitation params, with origin (throws 'invalid_params' on bad params or schema). */
export function buildElicitationRequest(
  params: unknown,
  origin: RequestOrigin,
  limits?: Partial<FormLimits>,
): Request {
  return firstRequest(checkQuestion(params, limits), origin);
}

/** @internal The cancelled Answer to `request` (what an unanswered question ends with). */
export const cancelled = (request: Request): Answer => ({
  id: request.id,
  ok: false,
  reason: 'cancelled',
});

/** Where the context handed to waitFor keeps the question's own (quiet) signal. */
const QUESTION_SIGNAL = Symbol('question signal');

/** The context's `signal`: one shared getter, own and enumerable, so a spread context keeps it. */
const HOST_SIGNAL: PropertyDescriptor = Object.freeze({
  get(this: { [QUESTION_SIGNAL]: AbortSignalLike }) {
    return hostSignal(this[QUESTION_SIGNAL]);
  },
  enumerable: true,
  configurable: true,
});

/**
 * What waitFor is handed: `signal` is a real AbortSignal, made when the host first reads it (a
 * question's own is quiet). Defined with a shared descriptor: an object literal with a getter is
 * several times slower to create, and every question pays for this.
 */
const waitContext = (signal: AbortSignalLike): WaitForContext =>
  Object.defineProperty<object>({ [QUESTION_SIGNAL]: signal }, 'signal', HOST_SIGNAL);

/** Resolved: awaiting it lets the reactions of promises settled before run (one microtask). */
const oneTick = Promise.resolve();

/** Ask one Request through waitFor, reporting it to the hooks; a throwing waitFor becomes 'wait_failed'. */
export async function askOnce(
  request: Request,
  context: Pick<AskContext, 'waitFor' | 'signal' | 'hooks'>,
): Promise<Answer> {
  const { signal, hooks } = context;
  hooks?.request?.(request);
  if (isAborted(signal)) {
    hooks?.answer?.(request, cancelled(request));
    throw abortedError();
  }
  let answer: Answer;
  let onAbort: (() => void) | undefined;
  try {
    const pending = Promise.resolve(
      context.waitFor(request, signal === undefined ? {} : waitContext(signal)),
    );
    // A waitFor that answered at once (a policy, a stored choice) is settled after one tick:
    // nobody waited, so nothing listens for the abort, and a question's signal has not looked at
    // the SDK's (runtime's QuietSignal); its own aborts (the call ended, detach) are checked below.
    let settled = 'no' as 'no' | 'answered' | 'threw';
    let outcome: unknown;
    pending.then(
      (value) => {
        settled = 'answered';
        outcome = value;
      },
      (error: unknown) => {
        settled = 'threw';
        outcome = error;
      },
    );
    await oneTick;
    if (settled === 'threw') throw outcome;
    answer = outcome as Answer;
    if (settled === 'no')
      // Race the waitFor against the abort: a waitFor that ignores its signal must not hold the call open.
      answer = await new Promise<Answer>((resolve, reject) => {
        if (signal !== undefined) {
          onAbort = () => reject(abortedError(signal.reason));
          signal.addEventListener('abort', onAbort);
          if (isAborted(signal)) onAbort();
        }
        pending.then(resolve, reject);
      });
  } catch (error) {
    hooks?.answer?.(request, cancelled(request));
    if (BridgeError.isInstance(error)) throw error;
    if (isAborted(signal)) throw abortedError(error);
    throw new BridgeError('wait_failed', 'waitFor threw', { cause: error });
  } finally {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
  // An answer for another Request is not trusted as this one's.
  if (answer === null || typeof answer !== 'object' || answer.id !== request.id) {
    answer = cancelled(request);
  }
  hooks?.answer?.(request, answer);
  if (isAborted(signal)) throw abortedError();
  return answer;
}

function settle(
  question: CheckedQuestion,
  answer: Answer,
): { result: ElicitResult } | { errors: Record<string, string> } {
  if (!answer.ok) return { result: answerToElicitResult(answer) };
  if (question.params.mode === 'url') return { result: { action: 'accept' } };
  // `accept(request)` without data takes the schema defaults; an accept with data is sent as given:
  // a field the person left empty is not filled behind their back, and a required one is asked again.
  const validation = validateAnswerData(question.schema, answer.data);
  return validation.ok
    ? { result: { action: 'accept', content: validation.value } }
    : { errors: validation.errors };
}

/** Turn an Answer into the ElicitResult to send, or the per-field errors of an invalid form; bad params throw 'invalid_params'. */
export function settleAnswer(
  params: unknown,
  answer: Answer,
  limits?: Partial<FormLimits>,
): { result: ElicitResult } | { errors: Record<string, string> } {
  return settle(checkQuestion(params, limits), answer);
}

/** Ask the person a checked question (re-asking on invalid forms) and return the ElicitResult to send. */
export async function askPerson(
  question: CheckedQuestion,
  context: AskContext,
): Promise<ElicitResult> {
  const first = firstRequest(question, context.origin);
  let request = context.rewrite === undefined ? first : context.rewrite(first);
  for (let attempt = 1; ; attempt += 1) {
    const answer = await askOnce(request, context);
    const settled = reportCheck(context.hooks, request, answer, settle(question, answer));
    if ('result' in settled) return settled.result;
    if (attempt >= context.maxAttempts) return { action: 'cancel' };
    request = {
      ...request,
      id: createRequestId('elc'),
      data: {
        ...request.data,
        errors: settled.errors,
        values: answer.data ?? {},
        attempt: attempt + 1,
      },
    };
  }
}
