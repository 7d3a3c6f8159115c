import type { Readable, Writable } from 'node:stream';
import { accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request, WaitFor, WaitForContext } from '@waitfor/core';
import { formDefaults, formFields, validateFormAnswer } from '@waitfor/core/form';
import type { FormField } from '@waitfor/core/form';
import { cleanText } from './cleanText.js';
import { askField, showValue } from './formPrompts.js';
import type { Screen } from './formPrompts.js';
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

const rule = (title: string) => `\n── ${title} ${'─'.repeat(Math.max(4, 60 - title.length))}`;

// The spec requires showing which server asks; era and tool help the person place the question.
const whoAsks = (request: Request): string => {
  const origin = request.data?.origin;
  if (origin === undefined) return 'Unknown server asks';
  const details = [
    typeof origin.era === 'string' ? `${cleanText(origin.era)} era` : undefined,
    typeof origin.tool === 'string' ? `tool ${cleanText(origin.tool)}` : undefined,
  ].filter((detail) => detail !== undefined);
  const server = cleanText(String(origin.server));
  return `${server} asks${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
};

// Messages of a re-ask (the bridge's `data.errors`): untrusted, so only strings of known fields.
const reAskErrors = (request: Request, fields: readonly FormField[]): Record<string, string> => {
  const given: unknown = request.data?.errors;
  if (given === null || typeof given !== 'object') return {};
  const messages: Record<string, string> = {};
  for (const { name } of fields) {
    const message = Object.hasOwn(given, name) ? (given as Record<string, unknown>)[name] : '';
    if (typeof message === 'string' && message !== '') messages[name] = message;
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
    return ask(reader, 'Decline (d) or cancel (c)? [d]: ', ['d', 'c'], signal).then((choice) =>
      choice === 'c' ? cancel(request) : decline(request),
    );
  }
  reader.print(`  Host: ${url.host}`);
  if (suspiciousHost(url.hostname))
    reader.print('  Warning: this host name uses lookalike (punycode or non-ASCII) characters.');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    reader.print(`  Only http and https pages can be opened; this one is ${url.protocol}`);
    return ask(reader, 'Decline (d) or cancel (c)? [d]: ', ['d', 'c'], signal).then((choice) =>
      choice === 'c' ? cancel(request) : decline(request),
    );
  }
  reader.print('Nothing is opened for you: copy the URL into your browser yourself if you agree.');
  const choice = await ask(
    reader,
    'Do you consent to continue there? (y = yes, n = decline, c = cancel): ',
    ['y', 'n', 'c'],
    signal,
  );
  if (choice === 'y') return accept(request);
  return choice === 'c' ? cancel(request) : decline(request);
}

async function ask(
  reader: Screen,
  prompt: string,
  choices: string[],
  signal?: AbortSignal,
): Promise<string> {
  const fallback = /\[(\w)\]: $/.exec(prompt)?.[1];
  for (;;) {
    const text = (await reader.ask(prompt, signal)).toLowerCase();
    const choice = text === '' ? fallback : text.slice(0, 1);
    if (choice !== undefined && choices.includes(choice)) return choice;
    reader.print(`  Please type one of: ${choices.join(', ')}.`);
  }
}

async function askForm(reader: Screen, request: Request, signal?: AbortSignal): Promise<Answer> {
  let fields: readonly FormField[];
  try {
    fields = formFields(request.data?.schema);
  } catch (error) {
    reader.print(
      `The form cannot be shown: ${cleanText(error instanceof Error ? error.message : String(error))}`,
    );
    const choice = await ask(reader, 'Decline (d) or cancel (c)? [c]: ', ['d', 'c'], signal);
    return choice === 'd' ? decline(request) : cancel(request);
  }
  const start = await ask(
    reader,
    'Answer (a), decline (d) or cancel (c)? [a]: ',
    ['a', 'd', 'c'],
    signal,
  );
  if (start === 'd') return decline(request);
  if (start === 'c') return cancel(request);

  // Values the bridge sends back with errors (a re-ask) win over the schema defaults.
  const previous = request.data?.values;
  const values: Record<string, unknown> = {
    ...formDefaults(request.data?.schema),
    ...(previous !== null && typeof previous === 'object'
      ? (previous as Record<string, unknown>)
      : {}),
  };
  let errors = reAskErrors(request, fields);
  let toAsk =
    Object.keys(errors).length > 0
      ? fields.filter((field) => Object.hasOwn(errors, field.name))
      : fields;
  reader.print('Press Enter to keep the value in [brackets]; * marks a required field.');
  for (;;) {
    for (const field of toAsk) {
      const message = Object.hasOwn(errors, field.name) ? errors[field.name] : undefined;
      if (message !== undefined) reader.print(`  ! ${cleanText(message)}`);
      const value = await askField(reader, field, values[field.name], signal);
      if (value === undefined) delete values[field.name];
      else values[field.name] = value;
    }
    const checked = validateFormAnswer(request.data?.schema, values);
    if (!checked.ok) {
      errors = checked.errors;
      reader.print('Some answers need another look.');
      toAsk = fields.filter((field) => Object.hasOwn(errors, field.name));
      if (toAsk.length === 0) toAsk = fields;
      continue;
    }
    reader.print('You are about to send:');
    for (const field of fields)
      reader.print(`  ${cleanText(field.title)}: ${showValue(field, checked.value[field.name])}`);
    const choice = await ask(
      reader,
      'Send (s), edit (e), decline (d) or cancel (c)? [s]: ',
      ['s', 'e', 'd', 'c'],
      signal,
    );
    if (choice === 's') return accept(request, checked.value);
    if (choice === 'd') return decline(request);
    if (choice === 'c') return cancel(request);
    errors = {};
    toAsk = fields;
  }
}

async function askApproval(
  reader: Screen,
  request: Request,
  signal?: AbortSignal,
): Promise<Answer> {
  const choice = await ask(
    reader,
    'Approve (y), decline (n) or cancel (c)? ',
    ['y', 'n', 'c'],
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
 * server ever reaches the terminal.
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
    screen.print(cleanText(request.prompt, true));
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
