/**
 * The MCP server the benchmarks call, written once on the v2 server SDK: a tool that needs one
 * answer returns `inputRequired(...)`; modern-era (2026-07-28) clients receive that as an
 * `input_required` result, and for a legacy-era (2025) connection the SDK's legacy shim pushes it
 * as `elicitation/create` instead. Served over the SDK's InMemoryTransport through `serveStdio`'s
 * bring-your-own-transport option, which pins the era from the opening exchange like a real stdio
 * server does, so the benchmarks measure the libraries and not a socket.
 */
import {
  Client,
  InMemoryTransport,
  type ClientOptions,
  type Implementation,
} from '@modelcontextprotocol/client';
import { inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { WaitFor } from '@waitfor/core';
import type { Bridge } from '@waitfor/mcp-bridge';

/** How many questions the `fan_out_<k>` tools ask in one round. */
export const FAN_OUT_SIZES = [1, 5, 20] as const;

/** The form every question asks: one required boolean. */
const confirmSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Confirm' } },
  required: ['confirm'],
} as const;

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const question = (message: string) =>
  inputRequired.elicit({ message, requestedSchema: confirmSchema as never });

/** What a person answered to `key`: "yes", "no", or the action (decline / cancel / missing). */
function answerOf(responses: Record<string, unknown> | undefined, key: string): string {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit') return view.kind;
  if (view.action !== 'accept') return view.action;
  return (view.content as { confirm?: unknown } | undefined)?.confirm === true ? 'yes' : 'no';
}

/** A fresh server with the benchmark tools: `plain`, `confirm`, and `fan_out_<k>` for each k. */
export function createBenchServer(): McpServer {
  const server = new McpServer(
    { name: 'waitfor-bench', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool('plain', { description: 'Answers at once' }, async () => text('done'));
  server.registerTool('confirm', { description: 'Asks one question' }, async (context) => {
    const responses = context.mcpReq.inputResponses;
    if (inputResponse(responses, 'confirm').kind === 'missing') {
      return inputRequired({ inputRequests: { confirm: question('Go ahead?') } });
    }
    return text(answerOf(responses, 'confirm'));
  });
  for (const size of FAN_OUT_SIZES) {
    const keys = Array.from({ length: size }, (_, index) => `q${index}`);
    server.registerTool(
      `fan_out_${size}`,
      { description: `Asks ${size} questions in one round` },
      async (context) => {
        const responses = context.mcpReq.inputResponses;
        if (keys.some((key) => inputResponse(responses, key).kind === 'missing')) {
          return inputRequired({
            inputRequests: Object.fromEntries(keys.map((key) => [key, question(`Go ${key}?`)])),
          });
        }
        return text(keys.map((key) => answerOf(responses, key)).join(','));
      },
    );
  }
  return server;
}

/** Which protocol era a benchmark client speaks. */
export type Era = 'legacy' | 'modern';

/** The modern protocol revision the benchmarks pin. */
export const MODERN_REVISION = '2026-07-28';

/** The waitFor of a bridge that only makes durable calls: nobody is asked in process. */
export const neverAsked: WaitFor = () =>
  Promise.reject(new Error('a durable call asked someone in process'));

/** A client connected in memory to its own benchmark server. */
export interface BenchConnection {
  client: Client;
  /** The bridge `prepare` attached (calls go through its methods), if it attached one. */
  bridge: Bridge | undefined;
  close(): Promise<void>;
}

/**
 * Build a client for `era` (the caller may register handlers or attach the bridge in `prepare`,
 * which runs before connect and returns the bridge it attached), connect it in memory to a fresh
 * benchmark server and check the era.
 */
export async function connectInMemory(
  era: Era,
  options: Pick<ClientOptions, 'capabilities'>,
  prepare: (client: Client) => Bridge | void = () => {},
): Promise<BenchConnection> {
  const info: Implementation = { name: `bench-${era}`, version: '1.0.0' };
  const client = new Client(info, {
    ...options,
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {}),
  });
  const bridge = prepare(client) ?? undefined;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(createBenchServer, { transport: serverSide });
  await client.connect(clientSide);
  const negotiated = client.getProtocolEra();
  if (negotiated !== era) {
    await client.close();
    await served.close();
    throw new Error(`Expected a ${era}-era connection, negotiated ${String(negotiated)}`);
  }
  return {
    client,
    bridge,
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: unknown }> }).content;
  const first = content?.[0]?.text;
  return typeof first === 'string' ? first : '';
}
