/**
 * Hosts for the gateway's tests: real SDK clients with their own elicitation handler, as a host
 * application registers it — a v1 `@modelcontextprotocol/sdk` client (2025 only) and a v2
 * `@modelcontextprotocol/client` pinned to 2026-07-28 (its own input_required loop calls the same
 * handler) — over Streamable HTTP or stdio. Also a raw modern-era POST, for states a real client
 * never sends (forged, replayed).
 */
import { fileURLToPath } from 'node:url';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export type HostKind = 'v1' | 'v2-modern';

/** What the host's person does with a question (params as the host received them). */
export type Person = (
  params: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ action: string; content?: Record<string, unknown> }>;

/** The elicitation capability a host declares: both modes, one, or none at all. */
export type Declared = 'both' | 'form' | 'none';

export interface Host {
  kind: HostKind;
  /** Every elicitation/create params the host's handler received, in order. */
  asked: Array<Record<string, unknown>>;
  /** The methods of every notification the host received (e.g. notifications/cancelled). */
  notified: string[];
  /**
   * Every JSON-RPC message the host's transport delivered, as it came (before the SDK parses it:
   * its schemas drop the fields they do not define before a handler sees the params).
   */
  received: unknown[];
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; onprogress?: (progress: unknown) => void },
  ): Promise<Record<string, unknown>>;
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  raw: V1Client | V2Client;
  close(): Promise<void>;
}

/** Record the messages a connected client's transport delivers, and the notifications among them. */
function tap(client: { transport?: unknown }, notified: string[], received: unknown[]): void {
  const transport = client.transport as { onmessage?: (message: unknown, extra?: unknown) => void };
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    received.push(message);
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (id === undefined && typeof method === 'string') notified.push(method);
    deliver?.call(transport, message, extra);
  };
}

const capabilitiesOf = (declared: Declared) =>
  declared === 'none'
    ? {}
    : { elicitation: declared === 'form' ? { form: {} } : { form: {}, url: {} } };

/** The stdio target of a gateway child (`tsx bin.ts …`). */
export const tsxBinary = fileURLToPath(
  new URL('../../../../node_modules/.bin/tsx', import.meta.url),
);
export const gatewayBin = fileURLToPath(new URL('../bin.ts', import.meta.url));
export const childTsconfig = fileURLToPath(new URL('./tsconfig.child.json', import.meta.url));

/** Open a host of `kind` on the gateway at `target` (an HTTP URL, or a command to spawn). */
export async function openHost(
  kind: HostKind,
  target: { url: string } | { command: string; args: string[] },
  person: Person,
  declared: Declared = 'both',
): Promise<Host> {
  const asked: Array<Record<string, unknown>> = [];
  const notified: string[] = [];
  const received: unknown[] = [];
  const info = { name: `host-${kind}`, version: '1.0.0' };
  const handle = async (params: Record<string, unknown>, signal: AbortSignal) => {
    asked.push(params);
    return person(params, signal);
  };
  if (kind === 'v1') {
    const client = new V1Client(info, { capabilities: capabilitiesOf(declared) });
    // A host that declares no elicitation registers no handler (both SDKs refuse one then).
    if (declared !== 'none')
      client.setRequestHandler(
        ElicitRequestSchema,
        (request, extra) => handle(request.params as never, extra.signal) as never,
      );
    await client.connect(
      'url' in target
        ? new V1Http(new URL(target.url))
        : new V1Stdio({ ...target, stderr: 'pipe' }),
    );
    tap(client, notified, received);
    return {
      kind,
      asked,
      notified,
      received,
      raw: client,
      callTool: (name, args = {}, options = {}) =>
        client.callTool({ name, arguments: args }, undefined, {
          ...options,
          timeout: 600_000,
        } as never) as never,
      listTools: () => client.listTools() as never,
      close: () => client.close(),
    };
  }
  const client = new V2Client(info, {
    capabilities: capabilitiesOf(declared),
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as never);
  if (declared !== 'none')
    client.setRequestHandler(
      'elicitation/create' as never,
      ((request: { params: never }, ctx: { mcpReq: { signal: AbortSignal } }) =>
        handle(request.params, ctx.mcpReq.signal)) as never,
    );
  await client.connect(
    'url' in target ? new V2Http(new URL(target.url)) : new V2Stdio({ ...target, stderr: 'pipe' }),
  );
  tap(client as never, notified, received);
  return {
    kind,
    asked,
    notified,
    received,
    raw: client,
    callTool: (name, args = {}, options = {}) =>
      client.callTool({ name, arguments: args }, {
        ...options,
        timeout: 600_000,
      } as never) as never,
    listTools: () => client.listTools() as never,
    close: () => client.close(),
  };
}

/** One modern-era JSON-RPC POST to `url` (what a 2026-07-28 client sends), and its JSON-RPC answer. */
export async function modernPost(
  url: string,
  id: number,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const params = {
    name,
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'raw-host', version: '1.0.0' },
    },
    ...extra,
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  const text = await response.text();
  const data = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .pop() ?? '{}');
  return JSON.parse(data) as never;
}

/** The text of the first content block of a result. */
export const textOf = (result: unknown): string =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';
