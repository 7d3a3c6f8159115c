/**
 * Ask the person one elicitation through the host's waitFor and produce the ElicitResult to send.
 *
 * Invariants: an invalid form answer is never sent — the same waitFor is asked again (fresh
 * Request id, `data.errors` per field, `data.values` = what the person gave) up to `maxAttempts`
 * times, then the question is answered `cancel`. Accepted forms carry schema defaults for omitted
 * fields and coerced values. A URL-mode accept carries no content (consent only).
 */
import {
  createRequestId,
  type AbortSignalLike,
  type Answer,
  type Request,
  type RequestOrigin,
  type WaitFor,
} from '@waitfor/core';
import { parseFormSchema, validateFormAnswer, type FormSchema } from '@waitfor/core/form';
import { BridgeError } from './bridgeError';
import {
  answerToElicitResult,
  elicitationToRequest,
  parseElicitationParams,
  type ElicitResult,
} from './mapping';

/** Lifecycle hooks the attachment uses for its events and open-request list. */
export interface AskHooks {
  request?(request: Request): void;
  answer?(request: Request, answer: Answer): void;
}

/** Everything askPerson needs besides the params. */
export interface AskContext {
  waitFor: WaitFor;
  origin: RequestOrigin;
  signal?: AbortSignalLike | undefined;
  /** How many times a person may submit an invalid form before the question is cancelled (≥ 1). */
  maxAttempts: number;
  /** Extension rewrite of the Request (legacy pushes only). */
  rewrite?: ((request: Request) => Request) | undefined;
  hooks?: AskHooks | undefined;
}

// A function, so TypeScript does not narrow `aborted` across awaits.
const isAborted = (signal: AbortSignalLike | undefined): boolean => signal?.aborted === true;

/** Default number of submissions of an invalid form before the bridge answers cancel. */
export const DEFAULT_MAX_ATTEMPTS = 3;

// Checking a schema deep-copies it; asking and settling one question (same params object) share one copy.
const parsedSchemas = new WeakMap<object, FormSchema>();

function formSchemaOf(schema: Record<string, unknown>): FormSchema {
  let parsed = parsedSchemas.get(schema);
  if (parsed === undefined) {
    parsed = parseFormSchema(schema);
    parsedSchemas.set(schema, parsed);
  }
  return parsed;
}

/** Build the first Request for elicitation params, with origin (throws 'invalid_params' on bad params or schema). */
export function buildElicitationRequest(params: unknown, origin: RequestOrigin): Request {
  const parsed = parseElicitationParams(params);
  const request = elicitationToRequest(params);
  if (parsed.mode === 'form') {
    try {
      formSchemaOf(parsed.requestedSchema);
    } catch (error) {
      throw new BridgeError(
        'invalid_params',
        `Invalid requestedSchema: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return { ...request, data: { ...request.data, origin } };
}

/** Ask one Request through waitFor, reporting it to the hooks; a throwing waitFor becomes 'wait_failed'. */
export async function askOnce(
  request: Request,
  context: Pick<AskContext, 'waitFor' | 'signal' | 'hooks'>,
): Promise<Answer> {
  context.hooks?.request?.(request);
  const signal = context.signal;
  if (signal?.aborted === true) {
    context.hooks?.answer?.(request, { id: request.id, ok: false, reason: 'cancelled' });
    throw new BridgeError('aborted', 'The call was aborted');
  }
  let answer: Answer;
  let stopListening = () => {};
  try {
    // Race the waitFor against the abort: a waitFor that ignores its signal must not hold the call open.
    const aborted = new Promise<never>((_resolve, reject) => {
      const onAbort = () =>
        reject(new BridgeError('aborted', 'The call was aborted', { cause: signal?.reason }));
      signal?.addEventListener('abort', onAbort, { once: true });
      stopListening = () => signal?.removeEventListener('abort', onAbort);
    });
    answer = await Promise.race([
      context.waitFor(request, signal === undefined ? {} : { signal }),
      aborted,
    ]);
  } catch (error) {
    const failed: Answer = { id: request.id, ok: false, reason: 'cancelled' };
    context.hooks?.answer?.(request, failed);
    if (BridgeError.isInstance(error) || isAborted(signal)) {
      throw BridgeError.isInstance(error)
        ? error
        : new BridgeError('aborted', 'The call was aborted', { cause: error });
    }
    throw new BridgeError('wait_failed', 'waitFor threw instead of answering', { cause: error });
  } finally {
    stopListening();
  }
  // An answer for another Request is not trusted as this one's.
  if (answer === null || typeof answer !== 'object' || answer.id !== request.id) {
    answer = { id: request.id, ok: false, reason: 'cancelled' };
  }
  context.hooks?.answer?.(request, answer);
  if (isAborted(context.signal)) throw new BridgeError('aborted', 'The call was aborted');
  return answer;
}

/** Turn an Answer into the ElicitResult to send, or the per-field errors of an invalid form. */
export function settleAnswer(
  params: unknown,
  answer: Answer,
): { result: ElicitResult } | { errors: Record<string, string> } {
  const parsed = parseElicitationParams(params);
  if (!answer.ok) return { result: answerToElicitResult(answer) };
  if (parsed.mode === 'url') return { result: { action: 'accept' } };
  const validation = validateFormAnswer(formSchemaOf(parsed.requestedSchema), answer.data ?? {});
  if (validation.ok) return { result: { action: 'accept', content: validation.value } };
  return { errors: validation.errors };
}

/** Ask the person (re-asking on invalid forms) and return the ElicitResult to send. */
export async function askPerson(params: unknown, context: AskContext): Promise<ElicitResult> {
  const rewrite = context.rewrite ?? ((request: Request) => request);
  let request = rewrite(buildElicitationRequest(params, context.origin));
  for (let attempt = 1; ; attempt += 1) {
    const answer = await askOnce(request, context);
    const settled = settleAnswer(params, answer);
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
