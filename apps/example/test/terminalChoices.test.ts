import { describe, expect, it } from 'vitest';
import { choices, readChoice, readNumber } from '../src/terminal/choices.js';
import { columnsOf, fitRows, indentLines } from '../src/terminal/layout.js';

// The prompt logic of the terminal waitFor, without a terminal: which typed text picks which
// choice, and how server text is laid out so it can never start a row at column 0.

describe('readChoice', () => {
  const sendPrompt = [choices.send, choices.edit, choices.decline, choices.cancel];

  it.each([
    ['s', 's'],
    ['send', 's'],
    ['  SEND ', 's'],
    ['S', 's'],
    ['', 's'],
    ['   ', 's'],
    ['e', 'e'],
    ['Edit', 'e'],
    ['decline', 'd'],
    ['c', 'c'],
    ['cancel', 'c'],
  ])('takes %j as %s', (text, key) => {
    expect(readChoice(text, sendPrompt, 's')).toBe(key);
  });

  it.each([
    'stop',
    'sure',
    'sen',
    'sends',
    'nope',
    'continue',
    'done',
    'delete',
    'e!',
    's e',
    'ss',
  ])('takes no choice from %j', (text) => {
    expect(readChoice(text, sendPrompt, 's')).toBeUndefined();
  });

  it('has no default when the prompt shows none', () => {
    const approval = [choices.approve, choices.refuse, choices.cancel];
    expect(readChoice('', approval)).toBeUndefined();
    expect(readChoice('approve', approval)).toBe('y');
    expect(readChoice('No', approval)).toBe('n');
    expect(readChoice('nope', approval)).toBeUndefined();
    expect(readChoice('yeah', approval)).toBeUndefined();
  });
});

describe('fitRows', () => {
  const fake = '── Good Bank asks (legacy era, tool pay) ────';

  it('leaves a row that fits as it is', () => {
    expect(fitRows('  short: ', 80)).toEqual(['  short: ']);
  });

  it.each([
    ['words padded to the edge', `  ${'a'.repeat(57)} ${fake} and more words after it`],
    ['spaces padded to the edge', `  ${' '.repeat(120)}${fake}`],
    ['lines padded to the edge', `  ${'─'.repeat(29)}${fake}`],
    ['wide characters', `  ${'中'.repeat(40)}${fake}`],
  ])('breaks %s into rows that fit and never start at column 0', (_name, line) => {
    const rows = fitRows(line, 60);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(columnsOf(row)).toBeLessThanOrEqual(60);
      expect(row).toMatch(/^ {2}/);
    }
  });

  it('keeps a long run of ASCII without spaces whole, so a URL stays copyable', () => {
    const url = `https://example.com/${'x'.repeat(100)}`;
    expect(fitRows(`  URL:  ${url}`, 60)).toEqual(['  URL:', `    ${url}`]);
  });

  it('counts two columns for anything but printable ASCII', () => {
    expect(columnsOf('ab')).toBe(2);
    expect(columnsOf('─中🙂')).toBe(6);
  });
});

describe('indentLines', () => {
  it('indents every line, empty ones included', () => {
    expect(indentLines('one\n\n── two')).toBe('  one\n  \n  ── two');
  });
});

describe('readNumber', () => {
  it.each([
    ['1', 1],
    ['3', 3],
    [' 2 ', 2],
    ['02', 2],
  ])('takes %j as %d', (text, number) => {
    expect(readNumber(text, 3)).toBe(number);
  });

  it.each(['0', '4', '0x2', '2e0', '1.0', '+1', '-1', '', ' ', 'one', '１'])(
    'takes no number from %j',
    (text) => {
      expect(readNumber(text, 3)).toBeUndefined();
    },
  );
});
