import { parseAnswer, WaitforError } from '@waitfor/core';
import { validateAnswerData } from '@waitfor/core/form';
import type { Answer, Ended } from '@waitfor/core';
import type { AnswerableInbox, RouteContext } from './handler';
import { json, refuse } from './responses';
import { readCapped } from './readBody';

/**
 * An inbox's `submit` as this route calls it: with the request's signal, which a store's inbox
 * takes to stop waiting for the answer's final word (core's in-memory inbox settles at once).
 */
type SubmitWithSignal = (answer: Answer, options: { signal: AbortSignal }) => Promise<boolean>;

/**
 * Answers one question of the caller's scope. Only JSON from an allowed Origin is read (a cross-site
 * form post can send neither), at most `maxBodyBytes` of it; every refusal leaves the question as
 * it was. 404 for an id the caller cannot see, 409 for one that ended (saying how, where the inbox
 * can), 422 for a form answer that does not fit (with per-field `errors`), 503 for one that lost
 * but is open again (a store gave a task's answer back: send it again). A client that goes away
 * stops the wait for the answer's final word (the request's signal; `toNodeListener` aborts it
 * when the socket closes).
 */
export async function answerRoute(
  request: Request,
  id: string,
  context: RouteContext,
): Promise<Response> {
  const { cors } = context;
  const origin = request.headers.get('origin');
  if (origin === null || !context.allowedOrigins.has(origin))
    return refuse(403, 'refused', 'Answers are accepted from the inbox page only.');
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return refuse(415, 'invalid_answer', 'Send the answer as application/json.', {}, cors);
  const body = await readCapped(request, context.maxBodyBytes);
  if ('failure' in body)
    return body.failure === 'too_large'
      ? refuse(413, 'invalid_answer', `The answer is over ${context.maxBodyBytes} bytes.`, {}, cors)
      : refuse(400, 'invalid_answer', 'The answer is not UTF-8.', {}, cors);
  let answer: Answer;
  try {
    answer = parseAnswer(JSON.parse(body.text));
  } catch (error) {
    const message = WaitforError.isInstance(error) ? error.message : 'The answer is not JSON.';
    return refuse(400, 'invalid_answer', message, {}, cors);
  }
  if (answer.id !== id)
    return refuse(400, 'invalid_answer', 'The answer names another question.', {}, cors);

  const feed = await context.feedOf(context.scope);
  const question = feed.inbox.get(id);
  if (!question) {
    const ended = await endedOf(feed.inbox, id);
    return ended !== undefined || feed.ended(id)
      ? conflict(ended, cors)
      : refuse(404, 'not_found', 'No such question.', {}, cors);
  }
  // The same rule as the store and the bridge: an accepted form answer must fit the form, its data
  // taken as given (no data: the defaults), so nothing is answered here that the bridge re-asks.
  const schema = question.data?.schema;
  if (answer.ok && schema !== undefined && question.url === undefined) {
    const validation = validateAnswerData(schema, answer.data);
    if (!validation.ok)
      return refuse(
        422,
        'invalid_form',
        'The answer does not fit the form.',
        { errors: validation.errors },
        cors,
      );
  }
  let won: boolean;
  try {
    const submit: SubmitWithSignal = feed.inbox.submit.bind(feed.inbox);
    won = await submit(answer, { signal: request.signal });
  } catch (error) {
    const errors = (error as { errors?: unknown } | null)?.errors;
    if ((error as { code?: unknown } | null)?.code === 'invalid_answer')
      return refuse(422, 'invalid_form', 'The answer was refused.', { errors: errors ?? {} }, cors);
    // Nobody reads this: the client went away before the answer's final word was known.
    if (request.signal.aborted)
      return refuse(
        503,
        'unavailable',
        'The answer was given; its outcome is not known.',
        {},
        cors,
      );
    throw error;
  }
  if (won) {
    feed.noteEnded(id);
    return json(200, { answered: true }, cors);
  }
  return lost(feed.inbox, id, cors, () => feed.noteEnded(id));
}

/** How `id` ended, as its inbox says; undefined when it cannot say (or its read failed). */
async function endedOf(inbox: AnswerableInbox, id: string): Promise<Ended | undefined> {
  try {
    return await inbox.ended?.(id);
  } catch {
    return undefined;
  }
}

const conflictMessages: Record<Ended['reason'], string> = {
  answered: 'This question was already answered.',
  expired: 'This question has expired.',
  cancelled: 'The asker no longer needs this answer.',
};

/** 409: the question ended; `ended` and `answeredBy` say how, where the inbox knows. */
function conflict(ended: Ended | undefined, cors: Record<string, string>): Response {
  if (ended === undefined)
    return refuse(409, 'conflict', 'This question was already answered, or has ended.', {}, cors);
  const by = ended.answeredBy === undefined ? {} : { answeredBy: ended.answeredBy };
  return refuse(
    409,
    'conflict',
    conflictMessages[ended.reason],
    { ended: ended.reason, ...by },
    cors,
  );
}

/**
 * An answer that did not win: 409 with how the question ended, or 503 when it is open again (its
 * inbox lists it, or says it has not ended: a store gave a task's answer back), so the person
 * sends it again instead of being told it ended.
 */
async function lost(
  inbox: AnswerableInbox,
  id: string,
  cors: Record<string, string>,
  noteEnded: () => void,
): Promise<Response> {
  const ended = await endedOf(inbox, id);
  const openAgain =
    ended === undefined && (inbox.get(id) !== undefined || inbox.ended !== undefined);
  if (openAgain)
    return refuse(
      503,
      'unavailable',
      'The question is open again: send the answer again.',
      {},
      cors,
    );
  noteEnded();
  return conflict(ended, cors);
}
