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
  ])('turns -32042 with %s into invalid_error_data', (_label, data) => {
    expect(codeOf(() => urlElicitationsOf(new McpError(-32042, 'x', data)))).toBe(
      'invalid_error_data',
    );
  });
});
