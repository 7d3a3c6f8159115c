/**
 * One dual-era MCP test server, written once on the v2 `@modelcontextprotocol/server` SDK.
 *
 * Every tool returns `inputRequired(...)` when it needs a person. Modern-era (2026-07-28) clients get
 * that as an `input_required` result; for legacy-era (2025) connections the SDK's legacy shim turns
 * it into real pushed `elicitation/create` requests and re-enters the handler. So one handler serves
 * both eras, and the bridge is tested against real SDK behaviour in both.
 *
 * Exports (reused by other helpers' tests):
 * - `createDualEraServer(options)` → a fresh `McpServer` (the factory for both serving entries).
 * - `startDualEraHttpServer(options)` → Streamable HTTP on 127.0.0.1:0. Modern traffic goes to
 *   `createMcpHandler` (strict), legacy traffic to a sessionful `NodeStreamableHTTPServerTransport`
 *   (pushed requests need a session: the stateless fallback would lose the client's answer POST).
 *   Returns `{ url, received, close }`; `received` records every JSON-RPC message POSTed to it.
 * - `FIXTURE_SECRET`, `signState`, `verifyState`: the HMAC used for `requestState`.
 *
 * Tools: `ask_form`, `ask_defaults` (every field has a default), `ask_url`, `two_rounds` (signed requestState), `fan_out {count}` (N questions
 * in one round, default 3), `no_state` (asks without requestState), `state_only {rounds}`,
 * `endless` (asks forever), `odd_state` (ODD_STATE must come back byte-exact), `mystery`
 * (unknown resultType), `notify_complete {elicitationId}` (legacy: sends notifications/elicitation/complete), `structured` (has an outputSchema), `slow {ms}`, `ask_sampling`,
 * `ask_roots`, `progress {steps, ms}` (progress notifications), `ask_annotated` (a form whose params
 * carry ANNOTATED_FIELDS: a `_meta` of the server's and a field no revision defines). Prompt `ask_prompt`, resource
 * `waitfor://asked`. Over HTTP, `port` pins the port and `gate` sees requests first (auth).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

/** The HMAC key of the fixture's requestState (tests may forge states with a different key). */
export const FIXTURE_SECRET = 'waitfor-fixture-secret-0123456789abcdef';

/** Sign a JSON payload into an opaque requestState: base64url(json) "." base64url(hmac). */
export function signState(payload: unknown, secret = FIXTURE_SECRET): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const mac = createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** Verify a requestState made by `signState`; returns the payload or throws on a bad signature. */
export function verifyState<T>(state: string, secret = FIXTURE_SECRET): T {
  const [body, mac] = state.split('.');
  if (body === undefined || mac === undefined) throw new Error('malformed requestState');
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new Error('requestState signature mismatch');
  }
  return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
}

/** A requestState that is not normalized JSON (spaces, key order, U+2028, a snowman): must come back byte-exact. */
export const ODD_STATE = ' {"b": 2,  "a":1}\u2028\u2603 ';

/** Options of the fixture server. */
export interface DualEraServerOptions {
  /** serverInfo name (default "dual-era-fixture"). */
  name?: string;
  /** HTTP: the port to listen on (default: any free one). */
  port?: number;
  /** HTTP: sees every request first and answers it itself when it returns true (auth tests). */
  gate?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

const formSchema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, title: 'Name', minLength: 1 },
    age: { type: 'integer' as const, title: 'Age', minimum: 0, maximum: 150, default: 30 },
    color: { type: 'string' as const, enum: ['red', 'green', 'blue'], default: 'blue' },
  },
  required: ['name'],
};

const defaultsSchema = {
  type: 'object' as const,
  properties: {
    version: { type: 'string' as const, title: 'Version', default: '1.0' },
    note: { type: 'string' as const, title: 'Note', default: 'none' },
    replicas: { type: 'integer' as const, title: 'Replicas', default: 3 },
  },
  required: ['version'],
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** What `ask_annotated` adds to its question's params: the server's `_meta` and an unknown field. */
export const ANNOTATED_FIELDS = {
  _meta: { 'example.com/trace': 'trace-7' },
  priority: 'high',
};

/** The answer of one elicitation key, as text ("accept:{...}" / "decline" / "cancel" / "missing"). */
function describe(responses: Record<string, unknown> | undefined, key: string): string {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit') return view.kind;
  if (view.action !== 'accept') return view.action;
  return view.content === undefined ? 'accept' : `accept:${JSON.stringify(view.content)}`;
}

const ask = (message: string, properties: Record<string, unknown>, required: string[] = []) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties, required } as never,
  });

const responsesOf = (context: ServerContext) => context.mcpReq.inputResponses;

/** Build a fresh McpServer with every fixture tool, prompt and resource. */
export function createDualEraServer(options: DualEraServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: options.name ?? 'dual-era-fixture', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {}, resources: {} } },
  );

  server.registerTool('ask_form', { description: 'Asks a form' }, async (context) => {
    const responses = responsesOf(context);
    if (inputResponse(responses, 'profile').kind === 'missing') {
      return inputRequired({
        inputRequests: {
          profile: inputRequired.elicit({
            message: 'Who are you?',
            requestedSchema: formSchema as never,
          }),
        },
      });
    }
    return text(describe(responses, 'profile'));
  });

  // Every field has a default, one of them required: `accept(request)` takes them all, while an
  // accept with data must carry every required field itself.
  server.registerTool(
    'ask_defaults',
    { description: 'Asks a form whose fields all have defaults' },
    async (context) => {
      const responses = responsesOf(context);
      if (inputResponse(responses, 'release').kind === 'missing') {
        return inputRequired({
          inputRequests: {
            release: inputRequired.elicit({
              message: 'Deploy which release?',
              requestedSchema: defaultsSchema as never,
            }),
          },
        });
      }
      return text(describe(responses, 'release'));
    },
  );

  server.registerTool(
    'ask_annotated',
    { description: 'Asks an annotated form' },
    async (context) => {
      const responses = responsesOf(context);
      if (inputResponse(responses, 'note').kind !== 'missing')
        return text(describe(responses, 'note'));
      const params = {
        mode: 'form',
        message: 'Write a note',
        requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
        ...ANNOTATED_FIELDS,
      };
      return inputRequired({
        inputRequests: { note: { method: 'elicitation/create', params } as never },
      });
    },
  );

  server.registerTool(
    'ask_url',
    { description: 'Asks for consent to visit a URL' },
    async (context) => {
      const responses = responsesOf(context);
      if (inputResponse(responses, 'login').kind === 'missing') {
        return inputRequired({
          inputRequests: {
            login: inputRequired.elicitUrl({
              message: 'Sign in to continue',
              url: 'https://example.com/login?flow=1',
            }),
          },
        });
      }
      return text(describe(responses, 'login'));
    },
  );

  server.registerTool(
    'two_rounds',
    { description: 'Two rounds with a signed requestState' },
    async (context) => {
      const responses = responsesOf(context);
      const state = context.mcpReq.requestState<string>();
      if (state === undefined) {
        const city = acceptedContent<{ city: string }>(responses, 'first');
        if (city === undefined) {
          return inputRequired({
            inputRequests: { first: ask('Which city?', { city: { type: 'string' } }, ['city']) },
          });
        }
        return inputRequired({
          inputRequests: {
            second: ask(`Confirm ${city.city}?`, { confirm: { type: 'boolean' } }, ['confirm']),
          },
          requestState: signState({ step: 1, city: city.city, nonce: randomUUID() }),
        });
      }
      const payload = verifyState<{ step: number; city: string }>(state);
      const confirmed = acceptedContent<{ confirm: boolean }>(responses, 'second');
      if (confirmed === undefined) {
        return inputRequired({
          inputRequests: {
            second: ask(`Confirm ${payload.city}?`, { confirm: { type: 'boolean' } }, ['confirm']),
          },
          requestState: state,
        });
      }
      return text(`city=${payload.city} confirm=${String(confirmed.confirm)}`);
    },
  );

  server.registerTool(
    'fan_out',
    {
      description: 'Asks N questions in one round',
      inputSchema: z.object({ count: z.number().int().min(1).max(20).optional() }),
    },
    async ({ count }, context) => {
      const keys = Array.from({ length: count ?? 3 }, (_, index) => `q${index + 1}`);
      const responses = responsesOf(context);
      if (keys.some((key) => inputResponse(responses, key).kind === 'missing')) {
        return inputRequired({
          inputRequests: Object.fromEntries(
            keys.map((key) => [
              key,
              ask(`Question ${key}`, { value: { type: 'string' } }, ['value']),
            ]),
          ),
        });
      }
      return text(keys.map((key) => `${key}=${describe(responses, key)}`).join(' '));
    },
  );

  server.registerTool(
    'odd_state',
    { description: 'Checks its requestState comes back byte-exact' },
    async (context) => {
      const state = context.mcpReq.requestState<string>();
      if (state === undefined) {
        return inputRequired({
          inputRequests: { go: ask('Go on?', { go: { type: 'boolean' } }) },
          requestState: ODD_STATE,
        });
      }
      return text(state === ODD_STATE ? 'state-ok' : `state-mismatch:${JSON.stringify(state)}`);
    },
  );

  server.registerTool(
    'notify_complete',
    {
      description: 'Sends notifications/elicitation/complete (legacy era only)',
      inputSchema: z.object({ elicitationId: z.string() }),
    },
    async ({ elicitationId }, context) => {
      try {
        await context.mcpReq.notify({
          method: 'notifications/elicitation/complete',
          params: { elicitationId },
        });
        return text('sent');
      } catch {
        return text('unsupported');
      }
    },
  );

  server.registerTool(
    'mystery',
    { description: 'Answers with an unknown resultType' },
    async () => {
      return { resultType: 'mystery', content: [] } as never;
    },
  );

  server.registerTool(
    'no_state',
    { description: 'Asks once, without requestState' },
    async (context) => {
      const responses = responsesOf(context);
      if (inputResponse(responses, 'only').kind === 'missing') {
        return inputRequired({
          inputRequests: { only: ask('Say something', { value: { type: 'string' } }) },
        });
      }
      return text(describe(responses, 'only'));
    },
  );

  server.registerTool(
    'state_only',
    {
      description: 'Load-sheds with state-only rounds',
      inputSchema: z.object({ rounds: z.number().int().min(1).max(20) }),
    },
    async ({ rounds }, context) => {
      const state = context.mcpReq.requestState<string>();
      const done = state === undefined ? 0 : verifyState<{ done: number }>(state).done;
      if (done < rounds) return inputRequired({ requestState: signState({ done: done + 1 }) });
      return text(`state-only rounds=${done}`);
    },
  );

  server.registerTool('endless', { description: 'Never completes' }, async (context) => {
    const state = context.mcpReq.requestState<string>();
    const round = state === undefined ? 0 : verifyState<{ round: number }>(state).round;
    return inputRequired({
      inputRequests: { [`again${round}`]: ask(`Round ${round}`, { value: { type: 'string' } }) },
      requestState: signState({ round: round + 1 }),
    });
  });

  server.registerTool(
    'structured',
    { description: 'Has an outputSchema', outputSchema: z.object({ doubled: z.number() }) },
    async (context) => {
      const value = acceptedContent<{ value: number }>(responsesOf(context), 'number');
      if (value === undefined) {
        return inputRequired({
          inputRequests: { number: ask('A number', { value: { type: 'number' } }, ['value']) },
        });
      }
      return {
        ...text(`doubled=${value.value * 2}`),
        structuredContent: { doubled: value.value * 2 },
      };
    },
  );

  server.registerTool(
    'slow',
    { description: 'Sleeps', inputSchema: z.object({ ms: z.number().int().min(0).max(60_000) }) },
    async ({ ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return text(`slept ${ms}`);
    },
  );

  server.registerTool(
    'progress',
    {
      description: 'Reports progress steps (to the progressToken the client sent), then answers',
      inputSchema: z.object({
        steps: z.number().int().min(1).max(100),
        ms: z.number().int().min(0).max(5_000),
      }),
    },
    async ({ steps, ms }, context) => {
      const progressToken = context.mcpReq._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        if (progressToken !== undefined)
          await context.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: steps },
          });
      }
      return text(`progressed ${steps}`);
    },
  );

  server.registerTool('ask_sampling', { description: 'Asks for a sampling' }, async (context) => {
    const view = inputResponse(responsesOf(context), 'llm');
    if (view.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          llm: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
            maxTokens: 10,
          }),
        },
      });
    }
    return text(view.kind === 'sampling' ? `model=${view.result.model}` : view.kind);
  });

  server.registerTool('ask_roots', { description: 'Asks for roots' }, async (context) => {
    const view = inputResponse(responsesOf(context), 'roots');
    if (view.kind === 'missing')
      return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return text(view.kind === 'roots' ? view.roots.map((root) => root.uri).join(',') : view.kind);
  });

  server.registerPrompt('ask_prompt', { description: 'Asks a topic' }, async (context) => {
    const topic = acceptedContent<{ topic: string }>(responsesOf(context), 'topic');
    if (topic === undefined) {
      return inputRequired({
        inputRequests: { topic: ask('Which topic?', { topic: { type: 'string' } }, ['topic']) },
      }) as never;
    }
    return {
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: `Tell me about ${topic.topic}` },
        },
      ],
    };
  });

  server.registerResource(
    'asked',
    'waitfor://asked',
    { mimeType: 'text/plain' },
    async (uri, context) => {
      const word = acceptedContent<{ word: string }>(responsesOf(context), 'word');
      if (word === undefined) {
        return inputRequired({
          inputRequests: { word: ask('Which word?', { word: { type: 'string' } }, ['word']) },
        }) as never;
      }
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `word=${word.word}` }] };
    },
  );

  return server;
}

/** A JSON-RPC message as POSTed to the fixture, with the era it was routed to. */
export interface ReceivedMessage {
  era: 'legacy' | 'modern';
  message: {
    id?: string | number;
    method?: string;
    params?: Record<string, unknown>;
    [key: string]: unknown;
  };
}

/** A running fixture HTTP server. */
export interface DualEraHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** Every JSON-RPC message POSTed so far (batches flattened), in arrival order. */
  received: ReceivedMessage[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function toWebRequest(request: IncomingMessage, body: unknown): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(key, value);
    else if (Array.isArray(value)) headers.set(key, value.join(', '));
  }
  const init: RequestInit = { method: request.method ?? 'GET', headers };
  if (body !== undefined && request.method === 'POST') {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return new Request(`http://127.0.0.1${request.url ?? '/'}`, init);
}

/** Start the fixture over Streamable HTTP on 127.0.0.1 with an ephemeral port. */
export async function startDualEraHttpServer(
  options: DualEraServerOptions = {},
): Promise<DualEraHttpServer> {
  const received: ReceivedMessage[] = [];
  const modern = toNodeHandler(
    createMcpHandler(() => createDualEraServer(options), { legacy: 'reject' }),
  );
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  const legacy = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response, body);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createDualEraServer(options).connect(transport);
    return transport.handleRequest(request, response, body);
  };

  const server = createServer((request, response) => {
    if (options.gate?.(request, response) === true) return;
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const isLegacy = await isLegacyRequest(toWebRequest(request, body), body);
      const era = isLegacy ? 'legacy' : 'modern';
      for (const message of Array.isArray(body) ? body : [body]) {
        if (message !== null && typeof message === 'object') {
          received.push({ era, message: structuredClone(message) as ReceivedMessage['message'] });
        }
      }
      if (isLegacy) await legacy(request, response, body);
      else await modern(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    close: async () => {
      await Promise.all(
        [...sessions.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
