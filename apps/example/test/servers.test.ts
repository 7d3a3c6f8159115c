import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeployConsole } from '../src/servers/deployConsole.js';
import { createSignInDesk } from '../src/servers/signInDesk.js';
import { startTravelDesk } from '../src/servers/travelDesk.js';
import type { RunningServer } from '../src/servers/travelDesk.js';

// The example's servers, driven by the official SDK clients directly (no waitfor in between), so
// a failure here is about the servers, not the bridge.

const firstText = (result: unknown) => {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((block) => block.type === 'text')?.text ?? '';
};

describe('Travel Desk (legacy era, v1 SDK)', () => {
  const signIns = createSignInDesk();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTravelDesk({ signIns });
  });
  afterAll(async () => {
    await server.close();
  });

  const connect = async (
    onElicit: (params: Record<string, unknown>) => Promise<unknown> | unknown,
  ) => {
    const client = new V1Client(
      { name: 'example-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    client.setRequestHandler(
      ElicitRequestSchema,
      async (request) => (await onElicit(request.params)) as never,
    );
    await client.connect(new V1Transport(new URL(server.mcpUrl)));
    return client;
  };

  it('book_trip asks with a form and books what was answered', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const client = await connect((params) => {
      asked.push(params);
      return {
        action: 'accept',
        content: {
          destination: 'kyoto',
          departure: '2027-03-14',
          nights: 6,
          cabin: 'premium',
          extras: ['bag', 'lounge'],
          email: 'ada@example.com',
          insurance: true,
        },
      };
    });
    const result = await client.callTool({ name: 'book_trip', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.mode).toBe('form');
    expect(firstText(result)).toMatch(
      /^Booked 6 nights in Kyoto, Japan from 2027-03-14, premium cabin with checked bag, lounge access, insured\. Itinerary sent to ada@example\.com\. Confirmation TD-[0-9A-F]{6}\.$/,
    );
    await client.close();
  });

  it('book_trip reports a decline without booking', async () => {
    const client = await connect(() => ({ action: 'decline' }));
    expect(firstText(await client.callTool({ name: 'book_trip', arguments: {} }))).toBe(
      'Booking declined: nothing was reserved.',
    );
    await client.close();
  });

  it('link_account asks for a URL sign-in, then notifies completion and finishes', async () => {
    const completions: string[] = [];
    let url = '';
    let elicitationId = '';
    const client = await connect((params) => {
      url = String(params.url);
      elicitationId = String(params.elicitationId);
      // The person opens the page after consenting: submit it like a browser would.
      setTimeout(() => {
        void fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'username=ada.lovelace&password=x',
        });
      }, 50);
      return { action: 'accept' };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completions.push(notification.params.elicitationId);
    });
    const result = await client.callTool({ name: 'link_account', arguments: { airline: 'Avios' } });
    expect(firstText(result)).toBe(
      'Linked Avios account ada.lovelace to your Travel Desk profile.',
    );
    expect(url.startsWith(`${server.baseUrl}/signin/`)).toBe(true);
    expect(completions).toEqual([elicitationId]);
    await client.close();
  });

  it('sync_calendar answers -32042 until the calendar sign-in is done', async () => {
    const client = await connect(() => ({ action: 'cancel' }));
    const completions: string[] = [];
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completions.push(notification.params.elicitationId);
    });
    const failure = await client.callTool({ name: 'sync_calendar', arguments: {} }).then(
      () => undefined,
      (error: unknown) =>
        error as {
          code?: number;
          data?: { elicitations?: Array<{ url: string; elicitationId: string }> };
        },
    );
    expect(failure?.code).toBe(-32042);
    const elicitation = failure?.data?.elicitations?.[0];
    expect(elicitation?.url.startsWith(`${server.baseUrl}/signin/`)).toBe(true);
    const page = await fetch(elicitation?.url ?? '');
    expect(await page.text()).toContain('Sign in to Calendar');
    await fetch(elicitation?.url ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=ada',
    });
    await expect.poll(() => completions).toEqual([elicitation?.elicitationId]);
    expect(firstText(await client.callTool({ name: 'sync_calendar', arguments: {} }))).toBe(
      'Synced 3 upcoming trips to your calendar.',
    );
    await client.close();
  });

  it('refuses malformed and session-less requests with JSON-RPC errors and keeps serving', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(server.mcpUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const broken = await post('{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32000);
    const noSession = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(noSession.status).toBe(400);
    const unknownSession = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      {
        'mcp-session-id': 'not-a-session',
      },
    );
    expect(unknownSession.status).toBe(404);
    const client = await connect(() => ({ action: 'cancel' }));
    expect(((await client.listTools()).tools ?? []).map((tool) => tool.name)).toEqual([
      'book_trip',
      'link_account',
      'sync_calendar',
    ]);
    await client.close();
  });

  it('answers CORS preflights for a loopback page and refuses other origins', async () => {
    const preflight = await fetch(server.mcpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'mcp-session-id, mcp-protocol-version, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    const foreign = await fetch(server.mcpUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('Deploy Console (modern era, v2 SDK)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeployConsole();
  });
  afterAll(async () => {
    await server.close();
  });

  it('deploy_service asks two questions in one round, then confirms in a second, with signed state', async () => {
    const rounds: string[][] = [];
    const pending: string[] = [];
    const client = new Client(
      { name: 'example-test', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler(
      'elicitation/create',
      async (
        request,
      ): Promise<{
        action: 'accept';
        content: Record<string, string | number | boolean | string[]>;
      }> => {
        const message = String(request.params.message);
        pending.push(message);
        if (pending.length === 1) queueMicrotask(() => rounds.push(pending.splice(0)));
        if (message.startsWith('Where')) {
          return {
            action: 'accept',
            content: { environment: 'production', region: 'eu-west-1', replicas: 3 },
          };
        }
        if (message.startsWith('How')) {
          return {
            action: 'accept',
            content: { version: '2.0.0', strategy: 'canary', notify: ['#on-call'] },
          };
        }
        return { action: 'accept', content: { confirm: true } };
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl)));
    expect(client.getProtocolEra()).toBe('modern');
    const result = await client.callTool({
      name: 'deploy_service',
      arguments: { service: 'billing-api' },
    });
    expect(firstText(result)).toMatch(
      /^Deployed billing-api 2\.0\.0 to production \(eu-west-1, 3 replicas, canary\) as release r-[0-9a-f]{6}\. Notified #on-call\.$/,
    );
    expect(rounds).toEqual([
      ['Where should billing-api run?', 'How should billing-api roll out?'],
      ['Deploy billing-api 2.0.0 to production (eu-west-1, 3 replicas, canary)?'],
    ]);
    await client.close();
  });

  it('refuses a tampered requestState', async () => {
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'deploy_service',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'deploy_service',
          arguments: {},
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
          requestState: 'v1.eyJwIjp7InN0ZXAiOiJjb25maXJtIn19.forged',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          },
        },
      }),
    });
    const body = (await response.json()) as { error?: { code: number }; result?: unknown };
    expect(body.result).toBeUndefined();
    expect(body.error?.code).toBe(-32602);
  });
});
