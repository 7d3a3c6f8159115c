import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { Inbox, WaitFor } from '@waitfor/core';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { BridgeError, connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { hostName, hostTool } from '../hostTool/hostTools.js';
import { noteQuestion } from './callQuestions.js';
import type { CallQuestions } from './callQuestions.js';
import { callTimeout } from './callTimeout.js';
import { loadServers } from './exampleConfig.js';
import type { ServerConfig } from './exampleConfig.js';
import { errorText, isToolError, resultText } from './resultText.js';

/** A tool a server lists. */
export interface ToolEntry {
  name: string;
  title: string;
  description: string;
}

/** One server as the page shows it. */
export interface ServerState {
  config: ServerConfig;
  status: 'connecting' | 'ready' | 'failed';
  /** The era the connection negotiated (may differ from the configured one if a server changed). */
  era?: string;
  tools: ToolEntry[];
  error?: string;
}

/** One tool call as the page shows it. */
export interface CallState extends CallQuestions {
  id: number;
  server: string;
  tool: string;
  title: string;
  /** 1 for the first run; each Retry runs the same call again under the same entry. */
  attempt: number;
  text?: string;
}

interface State {
  servers: ServerState[];
  calls: CallState[];
  loadError?: string;
}

type Action =
  | { type: 'configured'; servers: ServerConfig[] }
  | { type: 'loadFailed'; error: string }
  | { type: 'server'; name: string; patch: Partial<ServerState> }
  | { type: 'call'; call: CallState }
  | { type: 'asked'; server: string; tool: string | undefined; id: string };

function reduce(state: State, action: Action): State {
  switch (action.type) {
    case 'configured':
      return {
        ...state,
        servers: action.servers.map((config) => ({ config, status: 'connecting', tools: [] })),
      };
    case 'loadFailed':
      return { ...state, loadError: action.error };
    case 'server':
      return {
        ...state,
        servers: state.servers.map((server) =>
          server.config.name === action.name ? { ...server, ...action.patch } : server,
        ),
      };
    case 'call': {
      const others = state.calls.filter((call) => call.id !== action.call.id);
      return { ...state, calls: [action.call, ...others].sort((a, b) => b.id - a.id) };
    }
    case 'asked':
      return { ...state, calls: noteQuestion(state.calls, action.server, action.tool, action.id) };
  }
}

/** Starts one run of a call; resolves with how it ended (an abort rejects). */
type Starter = (signal: AbortSignal) => Promise<Pick<CallState, 'status' | 'text'>>;

const toolsOf = (listed: unknown): ToolEntry[] => {
  const tools = Array.isArray(listed)
    ? listed
    : ((listed as { tools?: unknown[] } | undefined)?.tools ?? []);
  return tools.map((tool) => {
    const entry = tool as { name: string; title?: string; description?: string };
    return {
      name: entry.name,
      title: entry.title ?? entry.name,
      description: entry.description ?? '',
    };
  });
};

/**
 * Connects the page's MCP clients (in this browser, through @waitfor/mcp-bridge) to every server
 * the host names, all answering through the ONE inbox, and runs tool calls: the servers' and the
 * example's own (host-side) tools, which ask through that same inbox.
 */
export function useExampleSession(inbox: Inbox, legacy: LegacySpec) {
  const [state, dispatch] = useReducer(reduce, { servers: [], calls: [] });
  const connections = useRef(new Map<string, Connection>());
  const nextCall = useRef(1);
  // The abort controller of every running call, by call id: Cancel aborts the bridge call.
  const running = useRef(new Map<number, AbortController>());

  useEffect(() => {
    const controller = new AbortController();
    const opened: Connection[] = [];
    // The inbox answers every question; URL ones are first noted on the runs that may have asked
    // them, so a "finish in the other tab" note can end with its call.
    const noting =
      (server: string): WaitFor =>
      (request, context) => {
        if (request.kind === 'authorization') {
          const origin = request.data?.origin;
          const tool =
            origin !== undefined && Object.hasOwn(origin, 'tool') ? origin.tool : undefined;
          dispatch({
            type: 'asked',
            server,
            tool: typeof tool === 'string' ? tool : undefined,
            id: request.id,
          });
        }
        return inbox.waitFor(request, context);
      };
    const start = async () => {
      const servers = await loadServers(controller.signal);
      dispatch({ type: 'configured', servers });
      await Promise.all(
        servers.map(async (config) => {
          try {
            const connection = await connect(
              { url: config.url },
              {
                waitFor: noting(config.name),
                name: 'waitfor-example-page',
                serverName: config.name,
                extensions: [legacy.extension],
              },
            );
            if (controller.signal.aborted) {
              await connection.close();
              return;
            }
            opened.push(connection);
            connections.current.set(config.name, connection);
            const tools = toolsOf(await connection.listTools());
            dispatch({
              type: 'server',
              name: config.name,
              patch: { status: 'ready', era: connection.era, tools },
            });
          } catch (error) {
            dispatch({
              type: 'server',
              name: config.name,
              patch: { status: 'failed', error: errorText(error) },
            });
          }
        }),
      );
    };
    start().catch((error: unknown) => {
      if (!controller.signal.aborted) dispatch({ type: 'loadFailed', error: errorText(error) });
    });
    const calls = running.current;
    return () => {
      controller.abort();
      for (const call of calls.values()) call.abort(new Error('The page closed its connections'));
      calls.clear();
      for (const connection of opened) void connection.close();
      connections.current.clear();
    };
  }, [inbox, legacy]);

  // What runs a call: the example's own tool (it asks through the inbox itself, as both servers'
  // questions do), or the server's tool over its connection; undefined when that is not connected.
  const starter = useCallback(
    (call: Pick<CallState, 'server' | 'tool'>): Starter | undefined => {
      const host = call.server === hostName ? hostTool(call.tool) : undefined;
      if (host !== undefined)
        return (signal) =>
          host.run(inbox.waitFor, signal).then((text) => ({ status: 'done', text }));
      const connection = connections.current.get(call.server);
      if (connection === undefined) return undefined;
      return (signal) =>
        connection
          .callTool(
            { name: call.tool, arguments: {} },
            { timeout: callTimeout(connection), signal },
          )
          .then((result: unknown) => ({
            status: isToolError(result) ? 'failed' : 'done',
            text: resultText(result),
          }));
    },
    [inbox],
  );

  // Runs (or runs again) one call under its own abort controller. Only this page aborts it, so an
  // aborted signal means the person cancelled, whatever error the abort surfaced as.
  // Each run starts with no questions: what an earlier attempt asked ended with that attempt.
  const run = useCallback(
    (call: Omit<CallState, 'status' | 'text' | 'questions'>) => {
      const start = starter(call);
      if (start === undefined) {
        dispatch({
          type: 'call',
          call: { ...call, status: 'failed', text: 'Not connected.', questions: [] },
        });
        return;
      }
      const controller = new AbortController();
      running.current.set(call.id, controller);
      dispatch({ type: 'call', call: { ...call, status: 'running', questions: [] } });
      const finish = (patch: Pick<CallState, 'status' | 'text'>) => {
        if (running.current.get(call.id) !== controller) return;
        running.current.delete(call.id);
        dispatch({ type: 'call', call: { ...call, ...patch, questions: [] } });
      };
      start(controller.signal).then(finish, (error: unknown) =>
        finish(
          controller.signal.aborted || (BridgeError.isInstance(error) && error.code === 'aborted')
            ? {
                status: 'cancelled',
                text: 'Cancelled: the call was stopped and its questions withdrawn.',
              }
            : { status: 'failed', text: errorText(error) },
        ),
      );
    },
    [starter],
  );

  const callTool = useCallback(
    (server: string, tool: ToolEntry) =>
      run({ id: nextCall.current++, server, tool: tool.name, title: tool.title, attempt: 1 }),
    [run],
  );

  /** Aborts a running call: the bridge ends it and its open questions leave the list. */
  const cancelCall = useCallback((id: number) => {
    running.current.get(id)?.abort(new Error('Cancelled from the page'));
  }, []);

  /** Runs a failed or cancelled call again, in the same entry. */
  const retryCall = useCallback(
    (call: CallState) => {
      if (running.current.has(call.id)) return;
      const { id, server, tool, title } = call;
      run({ id, server, tool, title, attempt: call.attempt + 1 });
    },
    [run],
  );

  return { ...state, callTool, cancelCall, retryCall };
}
