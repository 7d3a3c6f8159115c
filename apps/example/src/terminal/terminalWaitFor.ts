import type { Readable, Writable } from 'node:stream';
import { accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request, WaitFor, WaitForContext } from '@waitfor/core';
import { formDefaults, formFields, validateFormAnswer } from '@waitfor/core/form';
import type { FormField } from '@waitfor/core/form';
import { askChoice, choices } from './choices.js';
import { cleanText } from './cleanText.js';
import { askField, showValue } from './formPrompts.js';
import type { Screen } from './formPrompts.js';
import { indentLines } from './layout.js';
import { createLineReader } from './lineReader.js';
import type { LineReader } from './lineReader.js';

/** Where the terminal waitFor reads and writes. */
export interface TerminalWaitForOptions {
  input?: Readable;
  output?: Writable;
  /** Use an existing reader instead (shares one readline with the rest of a CLI). */
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
const whoAsks = (request: Request): string => {
  const origin = request.data?.origin;
  if (origin === undefined) return 'Unknown server asks';
  const era = ownValue(origin, 'era');
  const tool = ownValue(origin, 'tool');
  const details = [
    typeof era === 'string' ? `${cleanText(era)} era` : undefined,
    typeof tool === 'string' ? `tool ${cleanText(tool)}` : undefined,
  ].filter((detail) => detail !== undefined);
  const server = cleanText(String(origin.server));
  return `${server} asks${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
};

/** Messages by field name: strings of known fields only (a re-ask's `data.errors` is untrusted). */
const messagesOf = (given: unknown, fields: readonly FormField[]): Map<string, string> => {
  const messages = new Map<string, string>();
  for (const { name } of fields) {
    const message = ownValue(given, name);
    if (typeof message === 'string' && message !== '') messages.set(name, message);
  }
  return messages;
};

// Host names that can pass for another (punycode, non-ASCII) deserve a warning before consent.
const suspiciousHost = (host: string) =>
  host.split('.').some((label) => label.startsWith('xn--')) || /[^\x21-\x7e]/.test(host);

async function askConsent(reader: Screen, request: Request, signal?: AbortSignal): Promise<Answer> {
  let url: URL | undefined;
  try {
    url = new URL(request.url ?? '');
  } catch {
    url = undefined;
  }
  reader.print(`It asks you to open a page outside this terminal:`);
  // The parsed href, not the raw text: the URL parser percent-encodes control characters, so an
  // escape sequence in the URL cannot rewrite what the person reads as "the full URL".
  reader.print(
    `  URL:  ${url?.href ?? (request.url === undefined ? '(none)' : cleanText(request.url))}`,
  );
  if (url === undefined) {
    reader.print('  This is not a valid URL; it cannot be opened.');
    return refuse(reader, request, 'd', signal);
  }
  reader.print(`  Host: ${url.host}`);
  if (suspiciousHost(url.hostname))
    reader.print('  Warning: this host name uses lookalike (punycode or non-ASCII) characters.');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    reader.print(`  Only http and https pages can be opened; this one is ${url.protocol}`);
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

/** What core's validation says of one field, given every value entered so far (own keys only). */
function fieldError(
  schema: unknown,
  values: ReadonlyMap<string, unknown>,
  name: string,
): string | undefined {
  const checked = validateFormAnswer(schema, Object.fromEntries(values));
  const message = checked.ok ? undefined : ownValue(checked.errors, name);
  return typeof message === 'string' ? message : undefined;
}

async function askForm(reader: Screen, request: Request, signal?: AbortSignal): Promise<Answer> {
  const schema = request.data?.schema;
  let fields: readonly FormField[];
  try {
    fields = formFields(schema);
  } catch (error) {
    reader.print(
      `The form cannot be shown: ${cleanText(error instanceof Error ? error.message : String(error))}`,
    );
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

  // What the person sees pre-filled: the schema defaults, and over them the values the bridge sends
  // back with errors (a re-ask). Only fields of the form, read as own keys.
  const defaults = formDefaults(schema);
  const values = new Map<string, unknown>();
  for (const { name } of fields) {
    const value = ownValue(request.data?.values, name) ?? ownValue(defaults, name);
    if (value !== undefined) values.set(name, value);
  }
  let errors = messagesOf(request.data?.errors, fields);
  let toAsk = errors.size > 0 ? fields.filter((field) => errors.has(field.name)) : fields;
  reader.print('Press Enter to keep the value in [brackets]; * marks a required field.');
  for (;;) {
    for (const field of toAsk) {
      // Each field is checked as it is entered and asked again at once while it is wrong. Enter
      // on that second ask keeps the value and moves on (the check before sending asks again,
      // and there the person may also decline or cancel): nobody is stuck in a field.
      let message = errors.get(field.name);
      for (let again = false; ; again = true) {
        if (message !== undefined) reader.print(`    ! ${cleanText(message)}`);
        const before = values.get(field.name);
        const value = await askField(reader, field, before, signal);
        if (value === undefined) values.delete(field.name);
        else values.set(field.name, value);
        if (again && value === before) break;
        message = fieldError(schema, values, field.name);
        if (message === undefined) break;
      }
    }
    // fromEntries defines each key, so "__proto__" stays a field and never becomes a prototype.
    const checked = validateFormAnswer(schema, Object.fromEntries(values));
    if (!checked.ok) {
      errors = messagesOf(checked.errors, fields);
      reader.print('Some answers need another look.');
      toAsk = fields.filter((field) => errors.has(field.name));
      if (toAsk.length === 0) toAsk = fields;
      continue;
    }
    // The summary shows exactly what is sent: every value, the defaults left alone included.
    reader.print('You are about to send:');
    for (const field of fields) {
      const value = ownValue(checked.value, field.name);
      reader.print(`  ${cleanText(field.title)}: ${showValue(field, value)}`);
    }
    const choice = await askChoice(
      reader,
      'Send (s), edit (e), decline (d) or cancel (c)? [s]: ',
      [choices.send, choices.edit, choices.decline, choices.cancel],
      's',
      signal,
    );
    if (choice === 's') return accept(request, checked.value);
    if (choice === 'd') return decline(request);
    if (choice === 'c') return cancel(request);
    errors = new Map();
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
 * A WaitFor for command-line hosts: each Request becomes prompts on a terminal (node:readline).
 * Questions are asked one at a time in arrival order — several servers, or several questions of one
 * round, may ask at once. Forms render every field kind of the restricted schema and are checked
 * with `validateFormAnswer` before anything is sent; URL requests show the full URL and its host
 * and ask for consent — nothing is ever opened automatically. An abort ends the prompt as cancelled.
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
      if (signal?.aborted) screen.print('\n(The server no longer needs this answer.)');
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
