import { accept, cancel, decline, expire } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { BridgeError, elicitationCapabilities } from './index';
import { answerToElicitResult, elicitationToRequest } from './mapping';

describe('elicitationToRequest', () => {
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

  it('maps form params (mode form or absent) to an input Request with a fresh elc- id', () => {
    const first = elicitationToRequest({ message: 'Name?', requestedSchema: schema });
    const second = elicitationToRequest({
      mode: 'form',
      message: 'Name?',
      requestedSchema: schema,
    });
    expect(first).toMatchObject({ kind: 'input', prompt: 'Name?', data: { schema } });
    expect(first.id).toMatch(/^elc-./);
    expect(second.id).toMatch(/^elc-./);
    expect(second.id).not.toBe(first.id);
    expect(Object.keys(first).sort()).toEqual(['data', 'id', 'kind', 'prompt']);
  });

  it('maps URL params to an authorization Request with the url', () => {
    const request = elicitationToRequest({
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/a',
      elicitationId: 'e1',
    });
    expect(request).toEqual({
      id: request.id,
      kind: 'authorization',
      prompt: 'Sign in',
      url: 'https://example.com/a',
    });
  });

  it.each([
    ['not an object', 'nope'],
    ['missing message', { requestedSchema: schema }],
    ['form without schema', { message: 'x' }],
    ['url without url', { mode: 'url', message: 'x' }],
    ['unknown mode', { mode: 'voice', message: 'x', requestedSchema: schema }],
    ['null', null],
  ])('refuses %s with a typed error', (_label, params) => {
    let caught: unknown;
    try {
      elicitationToRequest(params);
    } catch (error) {
      caught = error;
    }
    expect(BridgeError.isInstance(caught)).toBe(true);
    expect((caught as BridgeError).code).toBe('invalid_params');
  });
});

describe('answerToElicitResult', () => {
  it('maps answers exactly as the table says', () => {
    expect(answerToElicitResult(accept('a', { name: 'Ada' }))).toEqual({
      action: 'accept',
      content: { name: 'Ada' },
    });
    expect(answerToElicitResult({ id: 'a', ok: true })).toEqual({ action: 'accept', content: {} });
    expect(answerToElicitResult(decline('a'))).toEqual({ action: 'decline' });
    expect(answerToElicitResult(cancel('a'))).toEqual({ action: 'cancel' });
    expect(answerToElicitResult(expire('a'))).toEqual({ action: 'cancel' });
    expect(answerToElicitResult({ id: 'a', ok: false, reason: 'policy' })).toEqual({
      action: 'cancel',
    });
  });
});

describe('elicitationCapabilities', () => {
  const waitFor = async () => ({ id: 'x', ok: false });

  it('declares elicitation only with a waitFor, naming exactly the modes served', () => {
    expect(elicitationCapabilities({})).toEqual({});
    expect(elicitationCapabilities({ waitFor })).toEqual({ elicitation: { form: {}, url: {} } });
    expect(elicitationCapabilities({ waitFor, modes: ['form'] })).toEqual({
      elicitation: { form: {} },
    });
    expect(elicitationCapabilities({ waitFor, modes: ['url'] })).toEqual({
      elicitation: { url: {} },
    });
    expect(elicitationCapabilities({ waitFor, modes: [] })).toEqual({});
  });

  it('declares sampling and roots only when the host gives a handler', () => {
    const handler = async () => ({});
    expect(elicitationCapabilities({ waitFor, sampling: handler })).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
    });
    expect(elicitationCapabilities({ roots: handler })).toEqual({ roots: {} });
  });
});

describe('BridgeError', () => {
  it('is recognised across copies by its brand', () => {
    const error = new BridgeError('aborted', 'stop', { cause: 'why' });
    expect(BridgeError.isInstance(error)).toBe(true);
    expect(BridgeError.isInstance(new Error('x'))).toBe(false);
    expect(
      BridgeError.isInstance(
        Object.assign(new Error('y'), { [Symbol.for('waitfor.mcp-bridge.error')]: true }),
      ),
    ).toBe(true);
    expect(error.cause).toBe('why');
  });
});
