import type { Readable, Writable } from 'node:stream';
import { accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request, WaitFor, WaitForContext } from '@waitfor/core';
import { createFormSession, inspectUrl, requestServer } from '@waitfor/core/form';
import type { FormSession } from '@waitfor/core/form';
import { askChoice, choices } from './choices.js';
import { cleanText } from './cleanText.js';
import { askField, showValue } from './formPrompts.js';
import type { Screen } from './formPrompts.js';
import { indentLines } from './layout.js';
import { createLineReader, PromptCancelledError } from './lineReader.js';
import type { LineReader } from './lineReader.js';

/** Where the terminal waitFor reads and writes. */
export interface TerminalWaitForOptions {
  input?: Readable;
  output?: Writable;
  /** Use an existing reader instead (shares one input with the rest of a CLI). */
  reader?: LineReader;
}

/** A WaitFor answered at a terminal prompt, plus a way to release the terminal. */
export interface TerminalWaitFor {
  waitFor: WaitFor;
  close(): void;
}

// Short, so it fits a narrow terminal in one row even counted two columns per line character.
const rule = (title: string) => `\n── ${title} ────`;

// Field names come from the server and may be "__proto__", "constructor" or "toString": every
// lookup by field name reads own keys only, and what is built by field name is a Map.

/** The own value of `key` in `record`, or undefined when `record` is no object or lacks it. */
const ownValue = (record: unknown, key: string): unknown =>
  record !== null && typeof record === 'object' && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;

// The spec requires showing which server asks; era and tool help the person place the question.
// The name is read by core's requestServer, as the page reads it.
const whoAsks = (request: Request): string => {
  const origin = request.data?.origin;
  const server = requestServer(request);
  if (origin === undefined || server === undefined) return 'Unknown server asks';
  const era = ownValue(origin, 'era');
  const tool = ownValue(origin, 'tool');
  const details = [
    typeof era === 'string' ? `${cleanText(era)} era` : undefined,
    typeof tool === 'string' ? `tool ${cleanText(tool)}` : undefined,
  ].filter((detail) => detail !== undefined);
  return `${cleanText(server)} asks${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
};

/** A message of `session` for the field `name`, if any (the snapshot holds own keys only). */
const messageOf = (session: FormSession, name: string): string | undefined =>
  ownValue(session.getSnapshot().errors, name) as string | undefined;

// What is shown and checked before consent is core's inspectUrl, as on the page: only http and
// https, no control, format or separator character, the port shown, look-alike hosts flagged.
async function askConsent(reader: Screen, request: Request, signal?: AbortSignal): Promise<Answer> {
  const url = inspectUrl(request.url);
  reader.print(`It asks you to open a page outside this terminal:`);
  // The parsed href, not the raw text: the URL parser percent-encodes control characters, so an
  // escape sequence in the URL cannot rewrite what the person reads as "the full URL".
  reader.print(`  URL:  ${url.problem === 'missing' ? '(none)' : cleanText(url.text)}`);
  if (url.problem === 'missing' || url.problem === 'malformed') {
    reader.print('  This is not a valid URL; it cannot be opened.');
    return refuse(reader, request, 'd', signal);
  }
  if (url.host !== undefined)
    reader.print(`  Host: ${url.host}${url.port === undefined ? '' : `:${url.port}`}`);
  if (url.warnings.includes('punycode'))
    reader.print('  Warning: this host name uses lookalike (punycode or non-ASCII) characters.');
  if (url.warnings.includes('credentials'))
    reader.print('  Warning: a user name comes before "@"; the site is the host shown above.');
  if (url.problem === 'scheme') {
    reader.print(`  Only http and https pages can be opened; this one is ${url.scheme ?? ''}`);
    return refuse(reader, request, 'd', signal);
  }
  if (url.problem === 'characters') {
    reader.print(
      '  It carries hidden characters (control, space, bidi or zero-width); not opened.',
    );
    return refuse(reader, request, 'd', signal);
  }
  reader.print('Nothing is opened for you: copy the URL into your browser yourself if you agree.');
  const choice = await askChoice(
    reader,
    'Do you consent to continue there? (y = yes, n = decline, c = cancel): ',
    [choices.yes, choices.refuse, choices.cancel],
    undefined,
    signal,
  );
  if (choice === 'y') {
    // The server goes on once the person is done in the browser: until then this is all there is.
    reader.print('  Waiting for you to finish in your browser (Ctrl-C stops)…');
    return accept(request);
  }
  return choice === 'c' ? cancel(request) : decline(request);
}

/** Decline or cancel, when nothing can be answered (Enter takes `fallback`). */
async function refuse(
  reader: Screen,
  request: Request,
  fallback: 'd' | 'c',
  signal?: AbortSignal,
): Promise<Answer> {
  const choice = await askChoice(
    reader,
    `Decline (d) or cancel (c)? [${fallback}]: `,
    [choices.decline, choices.cancel],
    fallback,
    signal,
  );
  return choice === 'd' ? decline(request) : cancel(request);
}

/** What core's validation says of one field, given every value entered so far. */
function fieldError(session: FormSession, name: string): string | undefined {
  const checked = session.validate();
  const message = checked.ok ? undefined : ownValue(checked.errors, name);
  return typeof message === 'string' ? message : undefined;
}

// The form's state is core's form session, as on the page: seeded with the schema's defaults and a
// re-ask's values and messages (own keys of known fields only), and what is sent is what it shows.
async function askForm(reader: Screen, request: Request, signal?: AbortSignal): Promise<Answer> {
  const session = createFormSession(request);
  const { fields, schemaError } = session;
  if (schemaError !== undefined) {
    reader.print(`The form cannot be shown: ${cleanText(schemaError.message)}`);
    return refuse(reader, request, 'c', signal);
  }
  const start = await askChoice(
    reader,
    'Answer (a), decline (d) or cancel (c)? [a]: ',
    [choices.answer, choices.decline, choices.cancel],
    'a',
    signal,
  );
  if (start === 'd') return decline(request);
  if (start === 'c') return cancel(request);

  const withMessage = () => fields.filter((field) => messageOf(session, field.name) !== undefined);
  let toAsk = withMessage().length > 0 ? withMessage() : fields;
  reader.print('Press Enter to keep the value in [brackets]; * marks a required field.');
  for (;;) {
    for (const field of toAsk) {
      // Each field is checked as it is entered and asked again at once while it is wrong. Enter
      // on that second ask keeps the value and moves on (the check before sending asks again,
      // and there the person may also decline or cancel): nobody is stuck in a field.
      let message = messageOf(session, field.name);
      for (let again = false; ; again = true) {
        if (message !== undefined) reader.print(`    ! ${cleanText(message)}`);
        const before = ownValue(session.getSnapshot().values, field.name);
        const value = await askField(reader, field, before, signal);
        // Undefined only when nothing was there and nothing was typed: the field stays empty.
        if (value !== undefined) session.setValue(field.name, value);
        if (again && value === before) break;
        message = fieldError(session, field.name);
        if (message === undefined) break;
      }
    }
    const answer = session.submit();
    if (answer === undefined) {
      reader.print('Some answers need another look.');
      toAsk = withMessage();
      if (toAsk.length === 0) toAsk = fields;
      continue;
    }
    // The summary shows exactly what is sent: every value, the defaults left alone included.
    reader.print('You are about to send:');
    for (const field of fields) {
      const value = ownValue(answer.data, field.name);
      reader.print(`  ${cleanText(field.title)}: ${showValue(field, value)}`);
    }
    const choice = await askChoice(
      reader,
      'Send (s), edit (e), decline (d) or cancel (c)? [s]: ',
      [choices.send, choices.edit, choices.decline, choices.cancel],
      's',
      signal,
    );
    if (choice === 's') return answer;
    if (choice === 'd') return decline(request);
    if (choice === 'c') return cancel(request);
    toAsk = fields;
  }
}

async function askApproval(
  reader: Screen,
  request: Request,
  signal?: AbortSignal,
): Promise<Answer> {
  const choice = await askChoice(
    reader,
    'Approve (y), decline (n) or cancel (c)? ',
    [choices.approve, choices.refuse, choices.cancel],
    undefined,
    signal,
  );
  if (choice === 'y') return accept(request);
  return choice === 'c' ? cancel(request) : decline(request);
}

/**
 * A WaitFor for command-line hosts: each Request becomes prompts on a terminal (@clack/prompts).
 * Questions are asked one at a time in arrival order — several servers, or several questions of one
 * round, may ask at once. Forms render every field kind of the restricted schema and are checked
 * with `validateFormAnswer` before anything is sent; URL requests show the full URL and its host
 * and ask for consent — nothing is ever opened automatically. An abort ends the prompt as cancelled,
 * and so does Escape.
 * Server text is printed only through cleanText: no escape sequence or control character of a
 * server ever reaches the terminal. Only the frame naming the asking server and the terminal's own
 * questions start at column 0; server text is indented and never left for the terminal to wrap,
 * so it cannot draw a frame naming another server. Choices are exact: a letter or its whole word.
 */
export function createTerminalWaitFor(options: TerminalWaitForOptions = {}): TerminalWaitFor {
  const reader =
    options.reader ??
    createLineReader(options.input ?? process.stdin, options.output ?? process.stdout);
  // Every line goes through cleanText as well: a server string that reaches the terminal by a path
  // not cleaned above still cannot carry an escape sequence.
  const screen: Screen = {
    print: (text) => reader.print(cleanText(text, true)),
    ask: (prompt, signal) => reader.ask(cleanText(prompt, true), signal),
  };
  let queue: Promise<unknown> = Promise.resolve();

  const present = async (request: Request, context?: WaitForContext): Promise<Answer> => {
    const signal = context?.signal as AbortSignal | undefined;
    if (signal?.aborted) return cancel(request, signal.reason);
    screen.print(rule(whoAsks(request)));
    // Indented, every line of it: a line break in the message cannot start a fake frame.
    screen.print(indentLines(cleanText(request.prompt, true)));
    try {
      if (request.kind === 'authorization') return await askConsent(screen, request, signal);
      if (request.kind === 'input') return await askForm(screen, request, signal);
      return await askApproval(screen, request, signal);
    } catch (error) {
      // Ctrl-C is the person stopping everything: the walkthrough says so ("You stopped …"), and
      // the abort it causes is not the server giving up.
      if (error instanceof PromptCancelledError && error.key === 'ctrl-c') {
        // Nothing here.
      } else if (signal?.aborted) screen.print('\n(The server no longer needs this answer.)');
      else if (error instanceof PromptCancelledError && error.key === 'escape')
        screen.print('  (You cancelled this question with Escape.)');
      return cancel(request, error);
    }
  };

  const waitFor: WaitFor = (request, context) => {
    const answer = queue.then(() => present(request, context));
    queue = answer.catch(() => undefined);
    return answer;
  };
  return { waitFor, close: () => reader.close() };
}
