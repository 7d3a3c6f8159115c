import { expect } from 'vitest';

// What the example's console trace prints: the ConsoleSpanExporter writes each span as it ends, one
// `{ … }` block per span (maybe right after a prompt), its fields two spaces in.

/** The spans printed in `text`: each block from its `{` to a `}` at column 0. */
export const spansIn = (text: string) => text.match(/\{\n {2}resource:[^]*?^\}$/gm) ?? [];

/** The value of `key` in a printed span, e.g. its name. */
export const fieldOf = (span: string, key: string) =>
  new RegExp(`^ {2}${key}: '([^']*)'`, 'm').exec(span)?.[1];

/**
 * The printed spans of the call to `tool` and of the input question it asked, checked to be there
 * and to be parent and child in one trace.
 */
export function callAndQuestion(text: string, tool: string) {
  const spans = spansIn(text);
  const call = spans.find((span) => fieldOf(span, 'name') === `tools/call ${tool}`) ?? '';
  const question = spans.find((span) => fieldOf(span, 'name') === 'waitfor.question input') ?? '';
  expect(call, `a span named tools/call ${tool}`).not.toBe('');
  expect(question, 'a span named waitfor.question input').not.toBe('');
  // The question is the call's child, in the call's trace.
  expect(fieldOf(question, 'traceId')).toBe(fieldOf(call, 'traceId'));
  expect(question).toContain(`spanId: '${fieldOf(call, 'id')}'`);
  return { spans, call, question };
}
