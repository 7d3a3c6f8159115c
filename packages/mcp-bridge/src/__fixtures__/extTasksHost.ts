/**
 * The official Tasks requester, `@modelcontextprotocol/ext-tasks` 0.2.2, set up as a host must set it
 * up for a 2026-07-28 Tasks server: a v2 SDK client pinned to 2026-07-28, plus the two things the SDK
 * cannot give it — `rawDispatch` (the SDK's codecs refuse `resultType: "task"` and the `tasks/*`
 * shapes, so the host sends `tools/call` and `tasks/*` itself: JSON-RPC framing, the SEP-2243
 * `Mcp-Method` / `Mcp-Name` / `MCP-Protocol-Version` headers, the POST, the response) and
 * `v2RequestFraming` (the per-request `_meta` the SDK client would otherwise write). This is that
 * host code, with plain fetch; the side-by-side test and the benchmark use it.
 *
 * Limits of this host code (what a real host would still have to add): JSON responses only (an SSE
 * response to a POST is not read), no notifications stream (ext-tasks polls), no auth, no retries.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type ApplicationInputRequest,
  type ApplicationInputResult,
  type JsonRpcResponse,
  type RawClientDispatch,
  type ResolvedInputExchangeContext,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';

const protocolVersion = '2026-07-28';
const clientInfo = { name: 'ext-tasks-host', version: '1.0.0' };
const clientCapabilities = { elicitation: { form: {}, url: {} } };

/** ext-tasks' input handler (its `onInputRequest` option). */
export type ExtInputHandler = <TRequest extends ApplicationInputRequest>(
  request: TRequest,
  context: ResolvedInputExchangeContext,
) => Promise<ApplicationInputResult<TRequest>>;

/** The host's raw request path: the request ext-tasks framed, sent with fetch to `url`. */
export function fetchDispatch(url: string): RawClientDispatch {
  let nextId = 0;
  return async (request, options) => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const name = method === 'tools/call' ? params?.name : params?.taskId;
    // ext-tasks puts its own `Mcp-Name` into the context headers: merged case-insensitively, so
    // the header is sent once.
    const headers = new Headers({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': protocolVersion,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    });
    for (const [header, value] of Object.entries(options?.context?.headers ?? {})) {
      headers.set(header, value);
    }
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: (nextId += 1), method, params }),
      ...(options?.signal === undefined ? {} : { signal: options.signal }),
    });
    const message = (await response.json()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
    };
    return (
      message.error === undefined
        ? { kind: 'result', result: message.result ?? null }
        : { kind: 'error', error: message.error }
    ) as JsonRpcResponse;
  };
}

/** An ext-tasks session on the Tasks server at `url`. */
export interface ExtTasksHost {
  session: TaskEnabledSession;
  /** Call `tool` and settle it: the task it ran as, and the final tool result (thrown if not completed). */
  call(tool: string, args?: Record<string, unknown>): Promise<{ taskId: string; result: unknown }>;
  close(): Promise<void>;
}

/** Connect a v2 client to `url` and wrap it in an ext-tasks session answering with `onInputRequest`. */
export async function openExtTasks(
  url: string,
  onInputRequest: ExtInputHandler,
): Promise<ExtTasksHost> {
  const client = new Client(clientInfo, {
    capabilities: clientCapabilities,
    versionNegotiation: { mode: { pin: protocolVersion } },
  } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    rawDispatch: fetchDispatch(url),
    v2RequestFraming: { protocolVersion, clientInfo, clientCapabilities },
    onInputRequest,
  });
  return {
    session,
    call: async (tool, args = {}) => {
      const execution = await session.callTool(tool, args as never);
      if (execution.kind !== 'task') throw new Error(`${tool} did not run as a task`);
      const { outcome } = await execution.settle();
      return { taskId: execution.handle.taskId, result: resultFromTaskOutcome(outcome) };
    },
    close: async () => {
      await session.close();
      await client.close();
    },
  };
}
