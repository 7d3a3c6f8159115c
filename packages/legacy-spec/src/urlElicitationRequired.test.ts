import {
  UrlElicitationRequiredError as V1UrlElicitationRequiredError,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { UrlElicitationRequiredError as V2UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { LegacySpecError } from './legacySpecError';
import { urlElicitationsOf } from './urlElicitationRequired';

const listed = {
  mode: 'url' as const,
  elicitationId: 'e-1',
  url: 'https://example.com/a',
  message: 'Sign in',
};

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return LegacySpecError.isInstance(error) ? error.code : 'other';
  }
  return 'none';
};

describe('urlElicitationsOf', () => {
  it.each([
    ['a v1 SDK error', new V1UrlElicitationRequiredError([listed])],
    ['a v2 SDK error', new V2UrlElicitationRequiredError([listed])],
    [
      'a wrapped wire error (rpc)',
      {
        name: 'BridgeError',
        rpc: { code: -32042, message: 'x', data: { elicitations: [listed] } },
      },
    ],
    [
      'an error whose cause is -32042',
      new Error('call failed', { cause: new McpError(-32042, 'x', { elicitations: [listed] }) }),
    ],
  ])('reads %s', (_label, error) => {
    expect(urlElicitationsOf(error)).toEqual([listed]);
  });

  it('leaves every other error alone', () => {
    expect(urlElicitationsOf(new McpError(-32602, 'bad params'))).toBeUndefined();
    expect(urlElicitationsOf(new Error('plain'))).toBeUndefined();
    expect(urlElicitationsOf('text')).toBeUndefined();
    expect(urlElicitationsOf(undefined)).toBeUndefined();
  });

  it.each([
    ['no data', undefined],
    ['an empty list', { elicitations: [] }],
    ['a form-mode entry', { elicitations: [{ ...listed, mode: 'form' }] }],
    ['a missing elicitationId', { elicitations: [{ ...listed, elicitationId: undefined }] }],
    ['a relative url', { elicitations: [{ ...listed, url: '/relative' }] }],
    ['a missing message', { elicitations: [{ ...listed, message: 7 }] }],
    ['a repeated elicitationId', { elicitations: [listed, listed] }],
    ['an empty elicitationId', { elicitations: [{ ...listed, elicitationId: '' }] }],
    [
      'a 257-character elicitationId',
      { elicitations: [{ ...listed, elicitationId: 'x'.repeat(257) }] },
    ],
    [
      'a url over 8192 characters',
      { elicitations: [{ ...listed, url: `https://example.com/${'u'.repeat(8192)}` }] },
    ],
  ])('turns -32042 with %s into invalid_error_data', (_label, data) => {
    expect(codeOf(() => urlElicitationsOf(new McpError(-32042, 'x', data)))).toBe(
      'invalid_error_data',
    );
  });

  it('accepts the bounds themselves: a 256-character elicitationId and an 8192-character url', () => {
    const url = `https://example.com/${'u'.repeat(8192 - 20)}`;
    const item = { ...listed, elicitationId: 'x'.repeat(256), url };
    expect(urlElicitationsOf(new McpError(-32042, 'x', { elicitations: [item] }))).toEqual([item]);
  });

  it('refuses more elicitations than the limit (default 100) with too_many_elicitations', () => {
    const list = (count: number) => ({
      elicitations: Array.from({ length: count }, (_, index) => ({
        ...listed,
        elicitationId: `e-${index}`,
      })),
    });
    expect(urlElicitationsOf(new McpError(-32042, 'x', list(100)))).toHaveLength(100);
    expect(codeOf(() => urlElicitationsOf(new McpError(-32042, 'x', list(101))))).toBe(
      'too_many_elicitations',
    );
    expect(codeOf(() => urlElicitationsOf(new McpError(-32042, 'x', list(3)), 2))).toBe(
      'too_many_elicitations',
    );
  });
});
