/** connect over Streamable HTTP with what the SDK's transport takes: headers, fetch, bearer and OAuth providers. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedPerson, textOf } from '../__fixtures__/clients';
import { startDualEraHttpServer, type DualEraHttpServer } from '../__fixtures__/dualEraServer';
import { startOAuthServer, type OAuthServer } from '../__fixtures__/oauthServer';
import { headlessOAuth } from '../../conformance/headlessOAuth';
import { BridgeError, connect } from '../index';

const token = 'secret-token-42';
const seen: Array<string | undefined> = [];
let bearer: DualEraHttpServer;
let oauth: OAuthServer;

beforeAll(async () => {
  bearer = await startDualEraHttpServer({
    gate: (request: IncomingMessage, response: ServerResponse) => {
      seen.push(request.headers['x-trace'] as string | undefined);
      if (request.headers.authorization === `Bearer ${token}`) return false;
      response.writeHead(401).end();
      return true;
    },
  });
  oauth = await startOAuthServer();
});
afterAll(async () => {
  await bearer.close();
  await oauth.close();
});

const person = () => scriptedPerson((request) => accept(request, { name: 'Kim' }));

describe('connect over HTTP: the transport options', () => {
  it('is refused (401) without the bearer token', async () => {
    const failure = await connect({ url: bearer.url }, { waitFor: person().waitFor }).catch(
      (error: unknown) => error,
    );
    expect(BridgeError.isInstance(failure) && failure.code).toBe('client_error');
  });

  it.each(['legacy', 'modern'] as const)(
    'sends headers and requestInit on every request (%s era)',
    async (era) => {
      seen.length = 0;
      const connection = await connect(
        {
          url: bearer.url,
          headers: { authorization: `Bearer ${token}` },
          requestInit: { headers: { 'x-trace': 'from-init' } },
        },
        { waitFor: person().waitFor, era },
      );
      try {
        expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe(
          'accept:{"name":"Kim"}',
        );
        expect(seen.length).toBeGreaterThan(1);
        expect(seen.every((value) => value === 'from-init')).toBe(true);
      } finally {
        await connection.close();
      }
    },
  );

  it('takes an AuthProvider for the token and a fetch of its own', async () => {
    const fetched: string[] = [];
    const connection = await connect(
      {
        url: bearer.url,
        authProvider: { token: async () => token },
        fetch: (input, init) => {
          fetched.push(String(init?.method));
          return fetch(input, init);
        },
      },
      { waitFor: person().waitFor },
    );
    try {
      expect(connection.state.getSnapshot().status).toBe('connected');
      expect(textOf(await connection.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe(
        'slept 0',
      );
      expect(fetched).toContain('POST');
    } finally {
      await connection.close();
    }
    expect(connection.state.getSnapshot().status).toBe('closed');
  });

  it.each(['legacy', 'modern'] as const)(
    'runs the OAuth flow through an OAuthClientProvider (%s era)',
    async (era) => {
      const { provider, authorizationCallback } = headlessOAuth();
      const before = oauth.issued.length;
      const connection = await connect(
        { url: oauth.url, authProvider: provider, authorizationCallback },
        { waitFor: person().waitFor, era },
      );
      try {
        expect(oauth.issued.length).toBe(before + 1);
        expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe(
          'accept:{"name":"Kim"}',
        );
      } finally {
        await connection.close();
      }
    },
  );

  it('fails with client_error when the OAuth flow cannot finish', async () => {
    const { provider } = headlessOAuth();
    const failure = await connect(
      { url: oauth.url, authProvider: provider },
      {
        waitFor: person().waitFor,
      },
    ).catch((error: unknown) => error);
    expect(BridgeError.isInstance(failure) && failure.code).toBe('client_error');
  });
});
