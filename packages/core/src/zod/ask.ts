import type { z } from 'zod';
import { boundWaitFor } from '../boundWaitFor';
import { createRequestId } from '../requestId';
import { DEFAULT_MAX_ATTEMPTS, askRequest } from '../tools/askRequest';
import type { AbortSignalLike, Request, RequestOrigin, WaitFor } from '../types';
import { WaitforError } from '../waitforError';
import {
  defineQuestion,
  isQuestion,
  type AskResult,
  type Question,
  type QuestionDefinition,
} from './question';
import type { QuestionSchema } from './toFormSchema';

/** How a question is asked. */
export interface AskOptions {
  /** Ends the wait: the result is then `{ok: false, reason: "cancelled"}`. */
  signal?: AbortSignalLike;
  /** RFC 3339 date-time after which the question ends `expired`. */
  expiresAt?: string;
  /** Who asks, shown by UIs and read by policies. */
  origin?: RequestOrigin;
  /** How many submissions of an invalid form a person gets before it ends cancelled (default 3). */
  maxAttempts?: number;
}

/**
 * Asks a typed question through `waitFor` and resolves with the schema's typed output. The answer
 * is checked by the form's rules and by the zod schema (refinements included); when it fails, the
 * person is asked again with the messages in `data.errors`, up to `maxAttempts`, then the result
 * is `cancelled`. Never rejects for what the person or the waitFor does; a schema outside the form
 * subset rejects with WaitforError `invalid_schema`.
 */
export async function ask<Schema extends QuestionSchema>(
  waitFor: WaitFor,
  question: Question<Schema> | (QuestionDefinition<Schema> & AskOptions),
  options: AskOptions = {},
): Promise<AskResult<z.output<Schema>>> {
  const asked = isQuestion(question) ? question : defineQuestion(question);
  const {
    signal,
    expiresAt,
    origin,
    maxAttempts = DEFAULT_MAX_ATTEMPTS,
  } = {
    ...(isQuestion(question) ? {} : question),
    ...options,
  };
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new WaitforError('invalid_options', 'options.maxAttempts must be an integer ≥ 1', {
      path: 'maxAttempts',
    });
  }
  let data: z.output<Schema> | undefined;
  const answer = await askRequest(boundWaitFor(waitFor), asked.request({ expiresAt, origin }), {
    signal,
    maxAttempts,
    validate: (values) => {
      const checked = asked.check(values);
      if (!checked.ok) return checked;
      data = checked.data;
      return { ok: true, value: values };
    },
  });
  return answer.ok
    ? { ok: true, data: data as z.output<Schema> }
    : { ok: false, reason: answer.reason ?? 'cancelled' };
}

/** What a URL question is asked with: the prompt and the page a person opens (e.g. to sign in). */
export interface UrlQuestion extends Omit<AskOptions, 'maxAttempts'> {
  prompt: string;
  url: string;
}

/**
 * Asks a person to open `url` (a Request of kind "authorization") and resolves with whether they
 * agreed and finished: `{ok: true}`, or `{ok: false, reason}`. Never rejects for what the person or
 * the waitFor does.
 */
export async function askUrl(
  waitFor: WaitFor,
  question: UrlQuestion,
): Promise<AskResult<undefined>> {
  const { prompt, url, signal, expiresAt, origin } = question;
  const request: Request = {
    id: createRequestId('url'),
    kind: 'authorization',
    prompt,
    url,
    ...(origin && { data: { origin } }),
    ...(expiresAt !== undefined && { expiresAt }),
  };
  const answer = await boundWaitFor(waitFor)(request, { signal });
  return answer.ok
    ? { ok: true, data: undefined }
    : { ok: false, reason: answer.reason ?? 'cancelled' };
}
