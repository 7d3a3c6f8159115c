import { describe, expect, it } from 'vitest';
import { inputSchemaOf, toModelOutput, toolError } from './convert';

// The pure conversions, on the shapes the MCP spec allows that the fixture server never sends.
describe('inputSchemaOf', () => {
  it('keeps the schema as given and fills in only a missing properties', () => {
    const schema = { type: 'object', required: [], $defs: { a: { type: 'string' } } };
    expect(inputSchemaOf('t', schema)).toEqual({ ...schema, properties: {} });
    const full = {
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: true,
    };
    expect(inputSchemaOf('t', full)).toBe(full);
  });

  it('refuses a tool without an object schema', () => {
    expect(() => inputSchemaOf('t', { type: 'string' })).toThrow(
      expect.objectContaining({ code: 'invalid_tools' }),
    );
    expect(() => inputSchemaOf('t', undefined)).toThrow('tool "t" has no object inputSchema');
  });
});

describe('toModelOutput', () => {
  it('turns every content block into what the model can read', () => {
    const output = {
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'aW1n', mimeType: 'image/png' },
        { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'Ymlu' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
    };
    expect(toModelOutput({ output })).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'hello' },
        { type: 'image-data', data: 'aW1n', mediaType: 'image/png' },
        { type: 'file-data', data: 'YXVk', mediaType: 'audio/wav' },
        { type: 'text', text: 'inside' },
        { type: 'file-data', data: 'Ymlu', mediaType: 'application/octet-stream' },
        { type: 'text', text: '{"type":"resource_link","uri":"file:///c","name":"c"}' },
      ],
    });
  });

  it('shows structured content as JSON when there is no content', () => {
    expect(toModelOutput({ output: { content: [], structuredContent: { a: 1 } } })).toEqual({
      type: 'json',
      value: { a: 1 },
    });
    expect(toModelOutput({ output: {} })).toEqual({ type: 'text', value: '' });
  });
});

describe('toolError', () => {
  it('names the tool when the result has no text', () => {
    const result = { content: [], isError: true };
    expect(toolError('t', result)).toMatchObject({ message: 'tool "t" failed', result });
  });
});
