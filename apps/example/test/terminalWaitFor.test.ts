import { PassThrough } from 'node:stream';
import type { Request } from '@waitfor/core';
import { validateFormAnswer } from '@waitfor/core/form';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanText } from '../src/terminal/cleanText.js';
import { createLineReader, InputEndedError } from '../src/terminal/lineReader.js';
import { openPrompt, replay } from './terminalScreen.js';
import { createTerminalWaitFor } from '../src/terminal/terminalWaitFor.js';
import type { TerminalWaitFor } from '../src/terminal/terminalWaitFor.js';

// The terminal waitFor over plain streams: a script answers each prompt as it appears, so the
// test sees exactly what a person would see and type.

const origin = { server: 'Test Server', era: 'legacy', tool: 'every_field' };

/** Every field kind of the restricted schema, each shape of select included. */
const everyField = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
    website: { type: 'string', title: 'Website', format: 'uri' },
    born: { type: 'string', title: 'Born', format: 'date' },
    meeting: { type: 'string', title: 'Meeting', format: 'date-time' },
    score: { type: 'number', title: 'Score', minimum: 0, maximum: 10 },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 9, default: 2 },
    vip: { type: 'boolean', title: 'VIP', default: false },
    color: { type: 'string', title: 'Color', enum: ['red', 'green'] },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    plan: {
      type: 'string',
      title: 'Plan',
      enum: ['free', 'pro'],
      enumNames: ['Free plan', 'Pro plan'],
    },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      maxItems: 2,
    },
    days: {
      type: 'array',
      title: 'Days',
      items: {
        anyOf: [
          { const: 'mon', title: 'Monday' },
          { const: 'tue', title: 'Tuesday' },
        ],
      },
    },
    hours: {
      type: 'array',
      title: 'Hours',
      items: {
        oneOf: [
          { const: 'am', title: 'Morning' },
          { const: 'pm', title: 'Afternoon' },
        ],
      },
    },
  },
  required: ['name', 'score', 'color'],
};

interface Terminal {
  terminal: TerminalWaitFor;
  /** Everything written to the terminal, escape sequences included. */
  output(): string;
  /** What the terminal shows (see replay): rows as a person reads them. */
  screen(): string;
  /** The screen with the open prompt folded into its message; '' while none is open. */
  prompt(): string;
  /** Answers the prompts in order: each answer is typed once its prompt (a regex) is open. */
  script(steps: Array<[RegExp, string]>): Promise<void>;
  /** Types keys as they are, without Enter. */
  type(keys: string): void;
}

const terminals: TerminalWaitFor[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});

// The prompt library hides the cursor once as it draws each new prompt: how many prompts opened.
const promptsOpened = (text: string) => text.split('\u001b[?25l').length - 1;

function openTerminal(): Terminal {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  // Prompts opened when the last answer was typed: the next one must open after it.
  let answered = 0;
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const terminal = createTerminalWaitFor({ input, output });
  terminals.push(terminal);
  return {
    terminal,
    output: () => text,
    screen: () => replay(text).rows.join('\n'),
    prompt: () => openPrompt(replay(text)),
    type: (keys) => input.write(keys),
    async script(steps) {
      for (const [prompt, line] of steps) {
        const pattern = new RegExp(`${prompt.source}\\s*$`);
        await expect
          .poll(() => (promptsOpened(text) > answered ? openPrompt(replay(text)) : ''), {
            timeout: 5_000,
            interval: 5,
          })
          .toMatch(pattern);
        answered = promptsOpened(text);
        // Enter is a carriage return, as a terminal in raw mode sends it.
        input.write(`${line}\r`);
      }
    },
  };
}

const formRequest = (id: string, schema: unknown = everyField): Request => ({
  id,
  kind: 'input',
  prompt: 'Tell us about the event.',
  data: { schema, origin },
});

describe('createTerminalWaitFor', () => {
  it('renders every field kind and sends a validated, coerced answer', async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor(formRequest('form-1'));
    await script([
      [/\[a\]:/, ''],
      [/Name \* \(at least 2 characters, at most 20 characters\):/, 'Ada'],
      [/Website \(uri\):/, 'https://example.com/ada'],
      [/Born \(date, YYYY-MM-DD\):/, '1815-12-10'],
      [/Meeting \(date and time, e\.g\. 2026-01-31T09:00:00Z\):/, '2027-01-31T09:00:00Z'],
      [/Score \* \(number, 0 to 10\):/, '9.5'],
      [/Seats \(whole number, 1 to 9\) \[2\]:/, ''],
      [/VIP \(y\/n\) \[no\]:/, 'yes'],
      [/Choose \(number\):/, 'green'],
      [/Choose \(number\):/, '2'],
      [/Choose \(number\):/, 'Pro plan'],
      [/Choose \(numbers separated by commas, - for none\):/, '3,1'],
      [/Choose \(numbers separated by commas, - for none\):/, '2'],
      [/Choose \(numbers separated by commas, - for none\):/, '-'],
      [/\[s\]:/, ''],
    ]);
    const expected = {
      name: 'Ada',
      website: 'https://example.com/ada',
      born: '1815-12-10',
      meeting: '2027-01-31T09:00:00Z',
      score: 9.5,
      seats: 2,
      vip: true,
      color: 'green',
      size: 'l',
      plan: 'pro',
      tags: ['c', 'a'],
      days: ['tue'],
      hours: [],
    };
    expect(await answer).toEqual({ id: 'form-1', ok: true, data: expected });
    expect(validateFormAnswer(everyField, expected)).toEqual({ ok: true, value: expected });
    const shown = output();
    expect(shown).toContain('Test Server asks (legacy era, tool every_field)');
    expect(shown).toContain('Tell us about the event.');
    for (const label of ['1) Small', '2) Large', '2) Pro plan', '1) Monday', '2) Afternoon'])
      expect(shown).toContain(label);
    expect(shown).toContain('  Tags: c, a');
  });

  it('checks each field as it is entered and asks it again at once, keeping what was typed', async () => {
    const { terminal, script, output } = openTerminal();
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', title: 'Email', format: 'email' },
        count: { type: 'integer', title: 'Count', maximum: 5 },
      },
      required: ['email', 'count'],
    };
    const answer = terminal.waitFor(formRequest('form-2', schema));
    await script([
      [/\[a\]:/, 'a'],
      [/Email \* \(email\):/, 'not-an-email'],
      [/! Enter an email address\.\n {2}Email \* \(email\) \[not-an-email\]:/, 'ada@example.com'],
      [/Count \* \(whole number, … to 5\):/, '7'],
      [/! Must be at most 5\.\n {2}Count \* \(whole number, … to 5\) \[7\]:/, '4'],
      [/\[s\]:/, 's'],
    ]);
    expect(await answer).toEqual({
      id: 'form-2',
      ok: true,
      data: { email: 'ada@example.com', count: 4 },
    });
    // Each error came right after its own field, before the next one was asked.
    expect(output().indexOf('Enter an email address.')).toBeLessThan(output().indexOf('Count *'));
    expect(output()).not.toContain('Some answers need another look.');
  });

  it('declines and cancels without validating anything', async () => {
    const { terminal, script } = openTerminal();
    const declined = terminal.waitFor(formRequest('form-3'));
    await script([[/\[a\]:/, 'd']]);
    expect(await declined).toEqual({ id: 'form-3', ok: false, reason: 'declined' });
    const cancelled = terminal.waitFor(formRequest('form-4'));
    await script([
      [/\[a\]:/, ''],
      [/Name \*.*:/, 'x'],
      // Asked again at once; Enter keeps "x" and moves on.
      [/Name \*.*\[x\]:/, ''],
      [/Website.*:/, ''],
      [/Born.*:/, ''],
      [/Meeting.*:/, ''],
      [/Score.*:/, '1'],
      [/Seats.*:/, ''],
      [/VIP.*:/, ''],
      [/Choose \(number\):/, '1'],
      [/Choose \(number\):/, ''],
      [/Choose \(number\):/, ''],
      [/Choose \(numbers.*:/, ''],
      [/Choose \(numbers.*:/, ''],
      [/Choose \(numbers.*:/, ''],
      // "x" is too short: the name is asked again, and the person gives up.
      [/Name \*.*\[x\]:/, 'anything'],
      [/\[s\]:/, 'c'],
    ]);
    expect(await cancelled).toEqual({ id: 'form-4', ok: false, reason: 'cancelled' });
  });

  it('asks consent for a URL, showing the full URL and host, and opens nothing', async () => {
    const { terminal, script, output } = openTerminal();
    const url = 'https://accounts.example.com/link?session=42';
    const answer = terminal.waitFor({
      id: 'url-1',
      kind: 'authorization',
      prompt: 'Link your account.',
      url,
      data: { origin },
    });
    await script([[/n = decline, c = cancel\):/, 'y']]);
    expect(await answer).toEqual({ id: 'url-1', ok: true });
    expect(output()).toContain(`URL:  ${url}`);
    expect(output()).toContain('Host: accounts.example.com');
    expect(output()).toContain('Nothing is opened for you');
  });

  it('warns about look-alike hosts and refuses schemes other than http and https', async () => {
    const { terminal, script, output } = openTerminal();
    const lookalike = terminal.waitFor({
      id: 'url-2',
      kind: 'authorization',
      prompt: 'Pay.',
      url: 'https://xn--pple-43d.com/pay',
    });
    await script([[/n = decline, c = cancel\):/, 'n']]);
    expect(await lookalike).toEqual({ id: 'url-2', ok: false, reason: 'declined' });
    expect(output()).toContain('Warning: this host name uses lookalike');
    expect(output()).toContain('Unknown server asks');

    const script2 = terminal.waitFor({
      id: 'url-3',
      kind: 'authorization',
      prompt: 'Run.',
      url: 'javascript:alert(1)',
    });
    await script([[/Decline \(d\) or cancel \(c\)\? \[d\]:/, 'y']]);
    await script([[/Decline \(d\) or cancel \(c\)\? \[d\]:/, '']]);
    expect(await script2).toEqual({ id: 'url-3', ok: false, reason: 'declined' });
    expect(output()).toContain('Only http and https pages can be opened; this one is javascript:');
    expect(output()).not.toMatch(/consent to continue there\?[^\n]*\n[^\n]*javascript/);
  });

  it('asks one question at a time, in arrival order', async () => {
    const { terminal, script, output, prompt } = openTerminal();
    const first = terminal.waitFor({
      id: 'q-1',
      kind: 'approval',
      prompt: 'First?',
      data: { origin },
    });
    const second = terminal.waitFor({
      id: 'q-2',
      kind: 'approval',
      prompt: 'Second?',
      data: { origin },
    });
    await expect.poll(prompt).toMatch(/First\?\nApprove \(y\), decline \(n\) or cancel \(c\)\?$/);
    // The second question waits until the first one is answered.
    expect(output()).not.toContain('Second?');
    await script([[/Approve \(y\), decline \(n\) or cancel \(c\)\?/, 'y']]);
    expect(await first).toEqual({ id: 'q-1', ok: true });
    await script([[/Second\?\nApprove \(y\), decline \(n\) or cancel \(c\)\?/, 'n']]);
    expect(await second).toEqual({ id: 'q-2', ok: false, reason: 'declined' });
    expect(output().indexOf('First?')).toBeLessThan(output().indexOf('Second?'));
  });

  it('ends an open prompt as cancelled when the asker aborts, and goes on with the next', async () => {
    const { terminal, script, output, prompt } = openTerminal();
    const controller = new AbortController();
    const aborted = terminal.waitFor(
      { id: 'q-3', kind: 'approval', prompt: 'Still there?' },
      { signal: controller.signal },
    );
    const next = terminal.waitFor({ id: 'q-4', kind: 'approval', prompt: 'Next one?' });
    await expect.poll(prompt).toMatch(/Still there\?\nApprove.*\?$/);
    controller.abort(new Error('the server gave up'));
    const answer = await aborted;
    expect(answer).toMatchObject({ id: 'q-3', ok: false, reason: 'cancelled' });
    expect(output()).toContain('The server no longer needs this answer.');
    await script([[/Next one\?\nApprove.*\?/, 'y']]);
    expect(await next).toEqual({ id: 'q-4', ok: true });
  });

  it('Ctrl-C at a question says nothing of the server: the person stopped (the abort follows it)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    // As the walkthrough wires it: Ctrl-C aborts the call, whose signal the question gets.
    const stop = new AbortController();
    const reader = createLineReader(input, output, () => stop.abort(new Error('Ctrl-C')));
    const terminal = createTerminalWaitFor({ reader });
    terminals.push(terminal);
    const asked = terminal.waitFor(
      { id: 'q-c', kind: 'approval', prompt: 'Stop here?' },
      { signal: stop.signal },
    );
    await expect.poll(() => openPrompt(replay(text))).toMatch(/Stop here\?\nApprove.*\?$/);
    input.write('\u0003');
    expect(await asked).toMatchObject({ id: 'q-c', ok: false, reason: 'cancelled' });
    expect(stop.signal.aborted).toBe(true);
    expect(text).not.toContain('The server no longer needs this answer.');
  });

  it('cancels only the question Escape is pressed in, and goes on with the next', async () => {
    const { terminal, script, output, prompt, type } = openTerminal();
    const escaped = terminal.waitFor(formRequest('esc-1'));
    const next = terminal.waitFor({ id: 'esc-2', kind: 'approval', prompt: 'Next one?' });
    await expect.poll(prompt).toMatch(/\[a\]:$/);
    // A lone ESC is the Escape key (the library waits a moment for more of a sequence first).
    type('\u001b');
    expect(await escaped).toMatchObject({ id: 'esc-1', ok: false, reason: 'cancelled' });
    expect(output()).toContain('  (You cancelled this question with Escape.)');
    await script([[/Next one\?\nApprove.*\?/, 'y']]);
    expect(await next).toEqual({ id: 'esc-2', ok: true });
  });

  it('offers decline or cancel when the form schema is malformed', async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor(
      formRequest('bad-1', { type: 'object', properties: { nested: { type: 'object' } } }),
    );
    await script([[/Decline \(d\) or cancel \(c\)\? \[c\]:/, '']]);
    expect(await answer).toEqual({ id: 'bad-1', ok: false, reason: 'cancelled' });
    expect(output()).toContain('The form cannot be shown');
  });
});

// ESC, CSI (ESC [ or C1 0x9b), OSC strings, every other C0/C1 control and DEL — all but the line feed.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharacters = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const ESC = '\u001b';
// What the prompt library draws with (CSI cursor moves, erases, colours, cursor show and hide):
// removed before looking for anything a server could have sent.
// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const librarySequences = /\u001b\[\??[0-9;]*[ABCDGJKhlm]/g;

describe('server text reaches the terminal without control characters', () => {
  it('shows the parsed href of a URL carrying escape sequences, and a prompt without them', async () => {
    const { terminal, script, output, screen } = openTerminal();
    // Raw, this would erase the line, move to column 1 and print a trusted address over the real one.
    const url = `https://evil.example/${ESC}[2K${ESC}[1Ghttps://bank.example/login`;
    const answer = terminal.waitFor({
      id: 'url-esc',
      kind: 'authorization',
      prompt: `Sign in${ESC}[31m now${ESC}[0m${ESC}]8;;https://evil.example/${ESC}\\ here${ESC}]8;;\u0007.\u009b2J\rDone\u202e`,
      url,
      data: {
        origin: { server: `Bank${ESC}[8m hidden`, era: `modern${ESC}[A`, tool: 'pay\u0007' },
      },
    });
    // Control characters in a URL hide its real target: it cannot be opened, so no consent is asked
    // (as on the page, and as httpUrlsOnly declines it); Enter declines.
    await script([[/Decline \(d\) or cancel \(c\)\? \[d\]:/, '']]);
    expect(await answer).toEqual({ id: 'url-esc', ok: false, reason: 'declined' });
    expect(output()).toContain('hidden characters');
    expect(output()).not.toContain('consent to continue there?');
    const shown = output();
    // Replaying throws on any escape sequence or control character the prompt library does not
    // draw with; the server's text, printed as is, holds none at all.
    expect(screen()).not.toMatch(controlCharacters);
    expect(shown.replace(librarySequences, '')).not.toMatch(controlCharacters);
    expect(shown).not.toContain('\u202e');
    expect(shown).toContain(`  URL:  ${new URL(url).href}\n`);
    expect(shown).toContain(
      '  URL:  https://evil.example/%1B[2K%1B[1Ghttps://bank.example/login\n',
    );
    expect(shown).toContain('  Host: evil.example\n');
    expect(shown).toContain('Bank hidden asks (modern era, tool pay)');
    // Every line of the message indented, as all server text is.
    expect(shown).toContain('  Sign in now here.\n  Done\n');
  });

  it('cleans a URL that cannot be parsed before showing it', async () => {
    const { terminal, script, output, screen } = openTerminal();
    const answer = terminal.waitFor({
      id: 'url-bad',
      kind: 'authorization',
      prompt: 'Open this.',
      url: `ht${ESC}[2Ktp://not a url${ESC}]8;;https://x.example/\u0007`,
    });
    await script([[/Decline \(d\) or cancel \(c\)\? \[d\]:/, '']]);
    expect(await answer).toEqual({ id: 'url-bad', ok: false, reason: 'declined' });
    expect(screen()).not.toMatch(controlCharacters);
    expect(output().replace(librarySequences, '')).not.toMatch(controlCharacters);
    expect(output()).toContain('  URL:  http://not a url\n');
    expect(output()).toContain('This is not a valid URL');
  });

  it("cleans a form's titles, descriptions, option labels, re-ask messages and values", async () => {
    const { terminal, script, output, screen } = openTerminal();
    const schema = {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          title: `Name${ESC}[2K\u0085`,
          description: `Your name${ESC}[5m\nreally`,
        },
        plan: {
          type: 'string',
          title: 'Plan',
          oneOf: [
            { const: 'free', title: `Free${ESC}[32m` },
            { const: 'pro', title: `Pro\u009b1;1H` },
          ],
        },
      },
      required: ['name', 'plan'],
    };
    const answer = terminal.waitFor({
      id: 'form-esc',
      kind: 'input',
      prompt: 'Again.',
      data: {
        schema,
        origin,
        // A re-ask as the bridge sends it; plus junk that must be ignored without a crash.
        values: { name: `A${ESC}[31m`, plan: 'pro' },
        errors: {
          name: `Too short${ESC}]0;owned\u0007.`,
          plan: { message: 'not a string' },
          unknown: 'No such field.',
        } as unknown as Record<string, string>,
        attempt: 2,
      },
    });
    await script([
      [/\[a\]:/, ''],
      // Only the field with a message is asked again; its value is the cleaned one shown.
      [/Name \* \[A\]:/, 'Ada'],
      [/\[s\]:/, 's'],
    ]);
    expect(await answer).toEqual({ id: 'form-esc', ok: true, data: { name: 'Ada', plan: 'pro' } });
    const shown = output();
    expect(screen()).not.toMatch(controlCharacters);
    expect(shown.replace(librarySequences, '')).not.toMatch(controlCharacters);
    expect(shown).toContain('  ! Too short.\n');
    expect(shown).toContain('  Your name really\n');
    expect(shown).toContain('  Plan: Pro\n');
    expect(shown).not.toContain('not a string');
    expect(shown).not.toContain('No such field.');
  });
});

describe('cleanText', () => {
  it.each([
    ['SGR colours', `${ESC}[1;31mred${ESC}[0m`, 'red'],
    ['cursor moves and erases', `a${ESC}[2K${ESC}[10;1H${ESC}[Ab`, 'ab'],
    ['a C1 CSI', 'a\u009b2Jb', 'ab'],
    [
      'an OSC 8 hyperlink ended by BEL',
      `${ESC}]8;;https://evil/\u0007bank${ESC}]8;;\u0007`,
      'bank',
    ],
    ['an OSC title ended by ST', `${ESC}]0;title${ESC}\\text`, 'text'],
    ['a C1 OSC ended by C1 ST', '\u009d0;title\u009ctext', 'text'],
    ['an unterminated OSC', `text${ESC}]8;;https://evil/ everything after`, 'text'],
    ['a DCS string', `${ESC}Pq#0;2;0;0;0${ESC}\\ok`, 'ok'],
    ['two-byte escapes', `${ESC}7a${ESC}8${ESC}(Bb${ESC}c`, 'ab'],
    ['a lone ESC at the end', `a${ESC}`, 'a'],
    ['NUL, BEL, backspace, DEL and NEL', 'a\u0000\u0007\b\u007f\u0085b', 'ab'],
    ['bidi overrides and isolates', 'abc\u202egnp.exe\u2066x\u2069', 'abcgnp.exex'],
    ['carriage returns and tabs', 'one\rtwo\tthree\r\nfour', 'one two three four'],
    ['ordinary Unicode', 'Grüße 中文 ─ … 🙂', 'Grüße 中文 ─ … 🙂'],
  ])('removes %s', (_name, text, expected) => {
    expect(cleanText(text)).toBe(expected);
    expect(cleanText(text)).not.toMatch(controlCharacters);
  });

  it('keeps line breaks as LF only when asked (a prompt), never a carriage return', () => {
    expect(cleanText('one\ntwo\r\nthree\rfour')).toBe('one two three four');
    expect(cleanText(`one\ntwo\r\nthree\rfour${ESC}[2K`, true)).toBe('one\ntwo\nthree\nfour');
  });
});

describe('createLineReader', () => {
  /** A reader over plain streams, and a wait for its next prompt to open. */
  function openReader(onInterrupt?: () => void) {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const reader = createLineReader(input, output, onInterrupt);
    let opened = 0;
    const nextPrompt = async () => {
      await expect.poll(() => promptsOpened(text)).toBeGreaterThan(opened);
      opened = promptsOpened(text);
    };
    return { input, reader, nextPrompt, screen: () => replay(text).rows.join('\n') };
  }

  it('reads a line at each prompt and reports the end of the input', async () => {
    const { input, reader, nextPrompt, screen } = openReader();
    const first = reader.ask('One? ');
    await nextPrompt();
    input.write('  first  \r');
    expect(await first).toBe('first');
    const second = reader.ask('Two? ');
    await nextPrompt();
    input.end();
    await expect(second).rejects.toBeInstanceOf(InputEndedError);
    await expect(reader.ask('Three? ')).rejects.toBeInstanceOf(InputEndedError);
    expect(reader.ended).toBe(true);
    // The answered prompt stays on screen with its answer.
    expect(screen()).toMatch(/◇ {2}One\?\n│ +first/);
  });

  it('rejects a prompt with the abort reason, and the next prompt reads the next line', async () => {
    const { input, reader, nextPrompt } = openReader();
    const controller = new AbortController();
    const asked = reader.ask('Wait? ', controller.signal);
    await nextPrompt();
    controller.abort(new Error('gave up'));
    await expect(asked).rejects.toThrow('gave up');
    const next = reader.ask('Next? ');
    await nextPrompt();
    input.write('later\r');
    expect(await next).toBe('later');
    reader.close();
  });

  it('ends the input on Ctrl-D, as a line-reading terminal does', async () => {
    const { input, reader, nextPrompt } = openReader();
    const asked = reader.ask('Anything? ');
    await nextPrompt();
    input.write('\u0004');
    await expect(asked).rejects.toBeInstanceOf(InputEndedError);
    expect(reader.ended).toBe(true);
    reader.close();
  });

  it('tells Ctrl-C (the person stops) from Escape (this prompt only)', async () => {
    let interrupts = 0;
    const { input, reader, nextPrompt } = openReader(() => (interrupts += 1));
    const escaped = reader.ask('Escape me? ');
    await nextPrompt();
    input.write('\u001b');
    await expect(escaped).rejects.toMatchObject({ name: 'PromptCancelledError', key: 'escape' });
    expect(interrupts).toBe(0);
    const stopped = reader.ask('Stop me? ');
    await nextPrompt();
    input.write('\u0003');
    await expect(stopped).rejects.toMatchObject({ name: 'PromptCancelledError', key: 'ctrl-c' });
    expect(interrupts).toBe(1);
    reader.close();
  });
});

describe('field names that are also Object.prototype keys', () => {
  // Parsed from JSON, as a server's schema arrives: "__proto__" is then an ordinary own key.
  const inherited = JSON.parse(`{
    "type": "object",
    "properties": {
      "__proto__": { "type": "string", "title": "Proto" },
      "constructor": { "type": "string", "title": "Constructor" },
      "toString": { "type": "string", "title": "To string", "default": "kept" },
      "valueOf": { "type": "integer", "title": "Value of" },
      "hasOwnProperty": { "type": "boolean", "title": "Own" }
    },
    "required": ["__proto__", "constructor"]
  }`) as Record<string, unknown>;

  it('asks each one with nothing pre-filled from the prototype and sends them as own keys', async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor(formRequest('proto-1', inherited));
    await script([
      [/\[a\]:/, ''],
      [/Proto \*:/, 'p'],
      [/Constructor \*:/, 'c'],
      [/To string \[kept\]:/, ''],
      [/Value of \(whole number\):/, ''],
      [/Own \(y\/n\):/, ''],
      [/\[s\]:/, 's'],
    ]);
    const sent = await answer;
    expect(sent).toEqual({
      id: 'proto-1',
      ok: true,
      data: JSON.parse('{"__proto__": "p", "constructor": "c", "toString": "kept"}'),
    });
    const data = (sent as { data: Record<string, unknown> }).data;
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(Object.hasOwn(data, 'valueOf')).toBe(false);
    const shown = output();
    expect(shown).not.toContain('[object Object]');
    expect(shown).not.toContain('native code');
    expect(shown).toContain('  Proto: p\n');
    expect(shown).toContain('  Constructor: c\n');
    expect(shown).toContain('  To string: kept\n');
    expect(shown).toContain('  Value of: —\n');
  });

  it("re-asks with the bridge's values and messages under those names", async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor({
      id: 'proto-2',
      kind: 'input',
      prompt: 'Again.',
      data: {
        schema: inherited,
        origin,
        values: JSON.parse('{"__proto__": "x", "constructor": "y"}'),
        errors: JSON.parse('{"__proto__": "Too plain.", "toString": "Say more."}'),
        attempt: 2,
      },
    });
    await script([
      [/\[a\]:/, ''],
      [/Proto \* \[x\]:/, 'better'],
      [/To string \[kept\]:/, 'more'],
      [/\[s\]:/, ''],
    ]);
    expect(await answer).toEqual({
      id: 'proto-2',
      ok: true,
      data: JSON.parse('{"__proto__": "better", "constructor": "y", "toString": "more"}'),
    });
    expect(output()).toContain('  ! Too plain.\n');
    expect(output()).toContain('  ! Say more.\n');
    expect(output()).not.toContain('native code');
  });
});

describe('what is sent is what was shown', () => {
  const withDefaults = {
    type: 'object',
    properties: {
      city: { type: 'string', title: 'City', default: 'Kyoto' },
      nights: { type: 'integer', title: 'Nights', default: 4 },
      insured: { type: 'boolean', title: 'Insured', default: false },
      cabin: { type: 'string', title: 'Cabin', enum: ['economy', 'business'], default: 'economy' },
      extras: {
        type: 'array',
        title: 'Extras',
        items: { type: 'string', enum: ['bag', 'lounge'] },
        default: ['bag'],
      },
    },
  };

  it('pre-fills the defaults and sends every value shown, defaults left alone included', async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor(formRequest('defaults-1', withDefaults));
    await script([
      [/\[a\]:/, ''],
      [/City \[Kyoto\]:/, ''],
      [/Nights \(whole number\) \[4\]:/, ''],
      [/Insured \(y\/n\) \[no\]:/, ''],
      [/Choose \(number\) \[economy\]:/, ''],
      [/Choose \(numbers separated by commas, - for none\) \[bag\]:/, ''],
      [/\[s\]:/, ''],
    ]);
    const sent = { city: 'Kyoto', nights: 4, insured: false, cabin: 'economy', extras: ['bag'] };
    // Never an empty accept that leaves the defaults to whoever receives it.
    expect(await answer).toEqual({ id: 'defaults-1', ok: true, data: sent });
    const shown = output();
    for (const line of [
      '  City: Kyoto',
      '  Nights: 4',
      '  Insured: no',
      '  Cabin: economy',
      '  Extras: bag',
    ])
      expect(shown).toContain(`${line}\n`);
  });

  it('asks an empty required field again, and sends nothing until it is filled', async () => {
    const { terminal, script, output } = openTerminal();
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', title: 'Email', format: 'email' },
        note: { type: 'string', title: 'Note', default: 'none' },
      },
      required: ['email'],
    };
    const answer = terminal.waitFor(formRequest('required-1', schema));
    await script([
      [/\[a\]:/, ''],
      [/Email \* \(email\):/, ''],
      // Asked again at once; Enter moves on, and the check before sending asks once more.
      [/! Required\.\n {2}Email \* \(email\):/, ''],
      [/Note \[none\]:/, ''],
      [/! Required\.\n {2}Email \* \(email\):/, 'ada@example.com'],
      [/\[s\]:/, 's'],
    ]);
    expect(await answer).toEqual({
      id: 'required-1',
      ok: true,
      data: { email: 'ada@example.com', note: 'none' },
    });
    // Asked again at once, then before sending: nothing was sent until it was filled.
    expect(output().match(/ {2}! Required\.\n/g)).toHaveLength(2);
    expect(output().match(/Some answers need another look\./g)).toHaveLength(1);
  });
});

describe('only the exact choices count', () => {
  const oneField = {
    type: 'object',
    properties: { note: { type: 'string', title: 'Note' } },
  };

  it('asks again on a word that merely starts with a choice letter', async () => {
    const { terminal, script, output } = openTerminal();
    const answer = terminal.waitFor(formRequest('exact-1', oneField));
    await script([
      // "nope" is not "n", "decline" or "d"; "continue" is not "c" or "cancel".
      [/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:/, 'nope'],
      [/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:/, 'continue'],
      [/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:/, '  ANSWER '],
      [/Note:/, 'hello'],
      // "stop" is not "send": it must never start what the form asks for.
      [/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:/, 'stop'],
      [/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:/, 'sure'],
      [/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:/, 'Edit'],
      [/Note \[hello\]:/, 'bye'],
      [/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:/, 'SEND'],
    ]);
    expect(await answer).toEqual({ id: 'exact-1', ok: true, data: { note: 'bye' } });
    expect(output().match(/is not one of the choices/g)).toHaveLength(4);
  });

  it('takes the whole words of approval and consent, and nothing else', async () => {
    const { terminal, script } = openTerminal();
    const approved = terminal.waitFor({ id: 'exact-2', kind: 'approval', prompt: 'Go?' });
    await script([
      [/Approve \(y\), decline \(n\) or cancel \(c\)\?/, 'yeah'],
      [/Approve \(y\), decline \(n\) or cancel \(c\)\?/, ''],
      [/Approve \(y\), decline \(n\) or cancel \(c\)\?/, 'approve'],
    ]);
    expect(await approved).toEqual({ id: 'exact-2', ok: true });
    const consent = terminal.waitFor({
      id: 'exact-3',
      kind: 'authorization',
      prompt: 'Sign in.',
      url: 'https://accounts.example.com/',
    });
    await script([
      [/n = decline, c = cancel\):/, 'yes please'],
      [/n = decline, c = cancel\):/, 'Decline'],
    ]);
    expect(await consent).toEqual({ id: 'exact-3', ok: false, reason: 'declined' });
  });

  it('picks an option only by its plain number, value or label', async () => {
    const { terminal, script, output } = openTerminal();
    const schema = {
      type: 'object',
      properties: { size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] } },
    };
    const answer = terminal.waitFor(formRequest('exact-4', schema));
    await script([
      [/\[a\]:/, ''],
      // Number() would read all of these as 2 or 3.
      [/Choose \(number\):/, '0x2'],
      [/Choose \(number\):/, '3e0'],
      [/Choose \(number\):/, '2.0'],
      [/Choose \(number\):/, ' 2 '],
      [/\[s\]:/, ''],
    ]);
    expect(await answer).toEqual({ id: 'exact-4', ok: true, data: { size: 'm' } });
    expect(output().match(/is not one of the choices/g)).toHaveLength(3);
  });
});

describe('server text cannot draw the frame that names the server', () => {
  const fake = '── Good Bank asks (legacy era, tool pay) ────────────────────';

  /** The prompt library's frame: its guide bar or a prompt's symbol, then two spaces. */
  const glyph = /^[│◆◇▲■└](?: {2}|$)/;
  /**
   * The rows that start at column 0 with something other than a space; in a row of the prompt
   * library's frame, the text after its glyph (a prompt's text is drawn there).
   */
  const flushLeft = (text: string) =>
    text.split('\n').flatMap((row) => {
      const after = row.replace(glyph, '');
      return /^\S/.test(after) ? [after] : [];
    });

  it('indents every line of a prompt, field text and re-ask message', async () => {
    const { terminal, script, screen } = openTerminal();
    const schema = {
      type: 'object',
      properties: {
        amount: { type: 'string', title: `Amount\n${fake}`, description: `Note\n${fake}` },
        to: {
          type: 'string',
          title: fake,
          oneOf: [{ const: 'x', title: `X\n${fake}` }],
        },
      },
    };
    const answer = terminal.waitFor({
      id: 'frame-1',
      kind: 'input',
      prompt: `Pay the invoice.\n\n${fake}\nConfirm the transfer of all your savings.`,
      data: {
        schema,
        origin: { server: 'Evil Shop', era: 'legacy', tool: 'pay' },
        values: { amount: `1\n${fake}` },
        errors: { amount: `Wrong.\n${fake}` },
      },
    });
    await script([
      [/\[a\]:/, ''],
      // Long server text is broken into indented rows, so the prompt spans several.
      [/Amount[^]*\]:/, ''],
      [/\[s\]:/, 'd'],
    ]);
    expect(await answer).toEqual({ id: 'frame-1', ok: false, reason: 'declined' });
    const shown = screen();
    expect(shown).toContain('Evil Shop asks');
    const frames = shown.split('\n').filter((row) => row.startsWith('──'));
    expect(frames).toEqual(['── Evil Shop asks (legacy era, tool pay) ────']);
    for (const row of flushLeft(shown)) expect(row).not.toContain('Good Bank');
    expect(shown).toContain('  Pay the invoice.\n');
  });

  it('breaks long server text itself, so the terminal never wraps it to column 0', async () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    Object.assign(output, { isTTY: true, columns: 60 });
    const input = new PassThrough();
    const terminal = createTerminalWaitFor({ input, output });
    terminals.push(terminal);
    // Padded so that, wrapped by a 60-column terminal, the fake frame would start a row.
    const padded = `${'a'.repeat(58)} ${fake}\n${' '.repeat(58)}${fake}\n${'─'.repeat(58)}${fake}`;
    const answer = terminal.waitFor({
      id: 'frame-2',
      kind: 'approval',
      prompt: padded,
      data: { origin: { server: 'Evil Shop' } },
    });
    await expect.poll(() => openPrompt(replay(text, 60))).toMatch(/cancel \(c\)\?$/);
    input.write('n\r');
    expect(await answer).toMatchObject({ ok: false, reason: 'declined' });
    const shown = replay(text, 60);
    // The terminal wrapped nothing: every row is one the program drew.
    expect(shown.wrapped).toEqual([]);
    // Conservatively one column per ASCII character, two for any other (a frame glyph is one).
    const width = (row: string) =>
      [...row.replace(glyph, ' ')].reduce((sum, c) => sum + (c < '\u007f' ? 1 : 2), 0);
    for (const row of shown.rows) expect(width(row)).toBeLessThanOrEqual(60);
    for (const row of flushLeft(shown.rows.join('\n'))) expect(row).not.toContain('Good Bank');
    expect(shown.rows.filter((row) => row.startsWith('──'))).toHaveLength(1);
  });

  it('breaks long server text in a prompt itself, so the prompt library never wraps it', async () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    Object.assign(output, { isTTY: true, columns: 60 });
    const input = new PassThrough();
    const terminal = createTerminalWaitFor({ input, output });
    terminals.push(terminal);
    // A field title is drawn in the prompt, after the library's symbol: padded so that, wrapped
    // by the library or the terminal at 60 columns, the fake frame would start a row.
    const schema = {
      type: 'object',
      properties: { note: { type: 'string', title: `${'a'.repeat(54)} ${fake}` } },
    };
    const answer = terminal.waitFor(formRequest('frame-3', schema));
    await expect.poll(() => openPrompt(replay(text, 60))).toMatch(/\[a\]:$/);
    input.write('\r');
    await expect.poll(() => openPrompt(replay(text, 60))).toMatch(/Good Bank[^]*:$/);
    input.write('d\r');
    await expect.poll(() => openPrompt(replay(text, 60))).toMatch(/\[s\]:$/);
    input.write('c\r');
    expect(await answer).toMatchObject({ ok: false, reason: 'cancelled' });
    const shown = replay(text, 60);
    expect(shown.wrapped).toEqual([]);
    for (const row of flushLeft(shown.rows.join('\n'))) expect(row).not.toContain('Good Bank');
    expect(shown.rows.filter((row) => row.startsWith('──'))).toHaveLength(1);
  });
});
