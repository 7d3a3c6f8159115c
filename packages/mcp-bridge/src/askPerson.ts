/**
 * Ask the person one elicitation through the host's waitFor and produce the ElicitResult to send.
 *
 * Invariants: an invalid form answer is never sent — the same waitFor is asked again (fresh
 * Request id, `data.errors` per field, `data.values` = what the person gave) up to `maxAttempts`
 * times, then the question is answered `cancel`. An accept without data takes the schema defaults;
 * an accept with data is sent as given (coerced), never with defaults the person did not see — a
 * required field left empty is asked again. A URL-mode accept carries no content (consent only).
 * The re-asking is the round engine's (`askUntilValid` of @waitfor/core/tools), as core's tool
 * runner does it; the params and the schema are checked once per question.
 */
import {
  type AbortSignalLike,
  type Answer,
  type Request,
  type RequestOrigin,
  type WaitFor,
} from '@waitfor/core';
import {
  parseFormSchema,
  validateAnswerData,
  type FormLimits,
  type FormSchema,
} from '@waitfor/core/form';
import { askUntilValid, type AnswerCheck } from '@waitfor/core/tools';
import { reportCheck, type AskHooks } from './askHooks';
import { abortedError, BridgeError, messageOf } from './bridgeError';
import { isAborted } from '@waitfor/runtime';
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
  /** The extensions' `inboundRequest` rewrite of each Request asked (see `inboundRewrite`). */
  rewrite?: ((request: Request) => Request) | undefined;
  hooks?: AskHooks | undefined;
}

/** Submissions of an invalid form before the bridge answers cancel: the round engine's default. */
export { DEFAULT_MAX_ATTEMPTS } from '@waitfor/core/tools';

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
    // Raced against the abort: a waitFor that ignores its signal must not hold the call open.
    answer = await new Promise<Answer>((resolve, reject) => {
      if (signal !== undefined) {
        onAbort = () => reject(abortedError(signal.reason));
        signal.addEventListener('abort', onAbort);
        if (isAborted(signal)) onAbort();
      }
      // Inside the executor: a waitFor that throws at once rejects like one that rejects later.
      Promise.resolve(context.waitFor(request, signal === undefined ? {} : { signal })).then(
        resolve,
        reject,
      );
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

function settle(question: CheckedQuestion, answer: Answer): AnswerCheck<ElicitResult> {
  if (!answer.ok) return { value: answerToElicitResult(answer) };
  if (question.params.mode === 'url') return { value: { action: 'accept' } };
  // `accept(request)` without data takes the schema defaults; an accept with data is sent as given:
  // a field the person left empty is not filled behind their back, and a required one is asked again.
  const validation = validateAnswerData(question.schema, answer.data);
  return validation.ok
    ? { value: { action: 'accept', content: validation.value } }
    : { errors: validation.errors };
}

/** Ask the person a checked question (re-asking on invalid forms) and return the ElicitResult to send. */
export async function askPerson(
  question: CheckedQuestion,
  context: AskContext,
): Promise<ElicitResult> {
  const { rewrite } = context;
  // Each Request asked, the first and every re-ask of an invalid form, is the extensions' to see;
  // its verdict names the Request waitFor was given.
  let asking: Request | undefined;
  const asked = await askUntilValid(firstRequest(question, context.origin), {
    ask: (request) =>
      askOnce((asking = rewrite === undefined ? request : rewrite(request)), context),
    check: (answer, request) =>
      reportCheck(context.hooks, asking ?? request, answer, settle(question, answer)),
    maxAttempts: context.maxAttempts,
    idPrefix: 'elc',
  });
  return 'value' in asked ? asked.value : { action: 'cancel' };
}
