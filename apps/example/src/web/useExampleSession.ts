import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { Inbox, WaitFor } from '@waitfor/core';
import type { ConnectionState } from '@waitfor/react';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { BridgeError, connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { hostName, hostTool } from '../hostTool/hostTools.js';
import { callKey, noteQuestion } from './callQuestions.js';
import type { CallQuestions } from './callQuestions.js';
import { callTimeout } from './callTimeout.js';
import { loadServers } from './exampleConfig.js';
import type { ServerConfig } from './exampleConfig.js';
import { errorText, isToolError, readableError, resultText } from './resultText.js';

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
  /** The live connection's state once connected (a server that went away is `closed`). */
  connection?: ConnectionState;
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
  /** What the tool returned (or why it failed), in the tool's words. */
  text?: string;
  /** Or the page's own words for how the call ended, in the page's language. */
  note?: CallNote;
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

/** How a call ended in the page's own words (a key of the page's texts). */
export type CallNote = 'notConnected' | 'cancelledCall' | 'disconnectedCall' | 'declinedCall';

/** Starts one run of a call; resolves with how it ended (an abort rejects). */
type Starter = (signal: AbortSignal) => Promise<Pick<CallState, 'status' | 'text'>>;

/** What the page remembers of a call while it runs. */
interface RunningCall {
  controller: AbortController;
  key: string;
  /** The person declined or cancelled one of its questions: its result reads so, whatever follows. */
  answered: 'declined' | 'cancelled' | undefined;
  /** The server's connection losses when the run started: one more means it went away. */
  losses: number;
}

/** A connection's live state, where the bridge offers one (`connection.state`). */
interface StateSource {
  getSnapshot(): { status: ConnectionState };
  subscribe(listener: () => void): () => void;
}

/** The connection's state source, if this bridge version has one. */
const stateOf = (connection: Connection): StateSource | undefined => {
  const state = (connection as { state?: unknown }).state;
  return typeof state === 'object' && state !== null && 'subscribe' in state
    ? (state as StateSource)
    : undefined;
};

/** Where a connection stands now: its state, or connected when the bridge reports none. */
const statusOf = (connection: Connection): ConnectionState =>
  stateOf(connection)?.getSnapshot().status ?? 'connected';

// A server that went away is tried again a few times, then shown as disconnected (where the
// bridge can notice: its `reconnect` option).
const reconnect = { reconnect: { maxAttempts: 3 } };

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
  // Every running call by id: Cancel aborts it through its controller.
  const running = useRef(new Map<number, RunningCall>());
  // How often each server's connection was lost (a call that spans a loss failed because of it).
  const losses = useRef(new Map<string, number>());

  // The inbox answers every question. Each is first noted on the run that asked it (server and
  // tool: Run never starts the same call twice), and a decline is remembered for that run's result.
  const noting = useCallback(
    (server: string): WaitFor =>
      async (request, context) => {
        const origin = request.data?.origin;
        const named = origin !== undefined && Object.hasOwn(origin, 'tool') ? origin.tool : '';
        const tool = typeof named === 'string' && named !== '' ? named : undefined;
        dispatch({ type: 'asked', server, tool, id: request.id });
        const answer = await inbox.waitFor(request, context);
        const { reason } = answer;
        const said =
          reason === 'declined' ? 'declined' : reason === 'cancelled' ? 'cancelled' : undefined;
        if (!answer.ok && said !== undefined) {
          for (const call of running.current.values())
            if (
              tool === undefined
                ? call.key.startsWith(`${server}\0`)
                : call.key === callKey(server, tool)
            )
              call.answered ??= said;
        }
        return answer;
      },
    [inbox],
  );

  useEffect(() => {
    const controller = new AbortController();
    const opened: Connection[] = [];
    const unsubscribes: (() => void)[] = [];
    const start = async () => {
      const servers = await loadServers(controller.signal);
      dispatch({ type: 'configured', servers });
      await Promise.all(
        servers.map(async (config) => {
          try {
            const connection = await connect(
              { url: config.url },
              {
                ...reconnect,
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
            // A server that goes away shows as such; a call that spans the loss failed by it.
            let previous = statusOf(connection);
            const follow = () => {
              const status = statusOf(connection);
              if (previous === 'connected' && status !== 'connected')
                losses.current.set(config.name, (losses.current.get(config.name) ?? 0) + 1);
              previous = status;
              dispatch({ type: 'server', name: config.name, patch: { connection: status } });
            };
            const unsubscribe = stateOf(connection)?.subscribe(follow);
            if (unsubscribe !== undefined) unsubscribes.push(unsubscribe);
            const tools = toolsOf(await connection.listTools());
            dispatch({
              type: 'server',
              name: config.name,
              patch: {
                status: 'ready',
                era: connection.era,
                tools,
                connection: statusOf(connection),
              },
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
    const connected = connections.current;
    return () => {
      controller.abort();
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const call of calls.values())
        call.controller.abort(new Error('The page closed its connections'));
      calls.clear();
      for (const connection of opened) void connection.close();
      connected.clear();
    };
  }, [legacy, noting]);

  // What runs a call: the example's own tool (it asks through the inbox itself, as both servers'
  // questions do), or the server's tool over its connection; undefined when that is not connected.
  const starter = useCallback(
    (call: Pick<CallState, 'server' | 'tool'>): Starter | undefined => {
      const host = call.server === hostName ? hostTool(call.tool) : undefined;
      if (host !== undefined)
        return (signal) =>
          host.run(noting(hostName), signal).then((text) => ({ status: 'done', text }));
      const connection = connections.current.get(call.server);
      if (connection === undefined || statusOf(connection) === 'closed') return undefined;
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
    [noting],
  );

  // Runs (or runs again) one call under its own abort controller. Only this page aborts it, so an
  // aborted signal means the person cancelled, whatever error the abort surfaced as.
  // Each run starts with no questions: what an earlier attempt asked ended with that attempt.
  // A call already running (same server and tool) is not started again.
  const run = useCallback(
    (call: Omit<CallState, 'status' | 'text' | 'note' | 'questions'>) => {
      const key = callKey(call.server, call.tool);
      for (const other of running.current.values()) if (other.key === key) return;
      const start = starter(call);
      if (start === undefined) {
        dispatch({
          type: 'call',
          call: {
            ...call,
            status: 'failed',
            note: 'notConnected',
            questions: [],
          },
        });
        return;
      }
      const controller = new AbortController();
      const entry: RunningCall = {
        controller,
        key,
        answered: undefined,
        losses: losses.current.get(call.server) ?? 0,
      };
      running.current.set(call.id, entry);
      dispatch({ type: 'call', call: { ...call, status: 'running', questions: [] } });
      const finish = (patch: Pick<CallState, 'status' | 'text' | 'note'>) => {
        if (running.current.get(call.id) !== entry) return;
        running.current.delete(call.id);
        dispatch({ type: 'call', call: { ...call, ...patch, questions: [] } });
      };
      const lost = () => (losses.current.get(call.server) ?? 0) > entry.losses;
      const cancelled = { status: 'cancelled', note: 'cancelledCall' } as const;
      start(controller.signal).then(
        (ended) =>
          finish(entry.answered === undefined ? ended : { ...ended, status: entry.answered }),
        (error: unknown) =>
          finish(
            controller.signal.aborted
              ? cancelled
              : lost()
                ? { status: 'failed', note: 'disconnectedCall' }
                : entry.answered !== undefined
                  ? { status: entry.answered, note: 'declinedCall' }
                  : BridgeError.isInstance(error) && error.code === 'aborted'
                    ? cancelled
                    : { status: 'failed', text: readableError(error) },
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
    running.current.get(id)?.controller.abort(new Error('Cancelled from the page'));
  }, []);

  /** Runs a finished call again, in the same entry (not while the same call runs). */
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
