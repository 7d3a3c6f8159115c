import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { Inbox, WaitFor } from '@waitfor/core';
import type { ConnectionState } from '@waitfor/react';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { hostName } from '../hostTool/hostTools.js';
import { CallRuns } from '../calls/callRuns.js';
import type { CallNote, RunState } from '../calls/callRuns.js';
import { starterOf } from '../calls/starters.js';
import type { CallQuestions } from './callQuestions.js';
import { loadServers } from './exampleConfig.js';
import type { ServerConfig } from './exampleConfig.js';
import { errorText } from './resultText.js';

export type { CallNote };

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
  | { type: 'run'; id: number; state: RunState };

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
    case 'run':
      return {
        ...state,
        calls: state.calls.map((call) =>
          call.id === action.id
            ? {
                ...call,
                status: action.state.status,
                text: action.state.text,
                note: action.state.note,
                questions: action.state.questions,
              }
            : call,
        ),
      };
  }
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

/** What linkServer needs of the page's session. */
interface LinkContext {
  waitFor: WaitFor;
  legacy: LegacySpec;
  dispatch(action: Action): void;
  signal: AbortSignal;
  connections: Map<string, Connection>;
  losses: Map<string, number>;
  opened: Connection[];
  unsubscribes: (() => void)[];
}

/** Connects the page's client to one server; a server that goes away shows as such. */
async function linkServer(config: ServerConfig, context: LinkContext): Promise<void> {
  const { dispatch, losses } = context;
  try {
    const connection = await connect(
      { url: config.url },
      {
        ...reconnect,
        waitFor: context.waitFor,
        name: 'waitfor-example-page',
        serverName: config.name,
        extensions: [context.legacy.extension],
      },
    );
    if (context.signal.aborted) {
      await connection.close();
      return;
    }
    context.opened.push(connection);
    context.connections.set(config.name, connection);
    // A call that spans a loss of its server's connection failed because of it.
    let previous = statusOf(connection);
    const follow = () => {
      const status = statusOf(connection);
      if (previous === 'connected' && status !== 'connected')
        losses.set(config.name, (losses.get(config.name) ?? 0) + 1);
      previous = status;
      dispatch({ type: 'server', name: config.name, patch: { connection: status } });
    };
    const unsubscribe = stateOf(connection)?.subscribe(follow);
    if (unsubscribe !== undefined) context.unsubscribes.push(unsubscribe);
    const tools = toolsOf(await connection.listTools());
    dispatch({
      type: 'server',
      name: config.name,
      patch: { status: 'ready', era: connection.era, tools, connection: statusOf(connection) },
    });
  } catch (error) {
    dispatch({
      type: 'server',
      name: config.name,
      patch: { status: 'failed', error: errorText(error) },
    });
  }
}

/**
 * Connects the page's MCP clients (in this browser, through @waitfor/mcp-bridge) to every server
 * the host names, all answering through the ONE inbox, and runs tool calls: the servers' and the
 * example's own (host-side) tools, which ask through that same inbox.
 */
export function useExampleSession(inbox: Inbox, legacy: LegacySpec) {
  const [state, dispatch] = useReducer(reduce, { servers: [], calls: [] });
  const connections = useRef(new Map<string, Connection>());
  const nextCall = useRef(1);
  // Every call's life (one run per tool, its questions, decline and cancel): shared with the
  // hosted mode's host, which runs the same class.
  const [runs] = useState(
    () => new CallRuns<number>((id, run) => dispatch({ type: 'run', id, state: run })),
  );
  // How often each server's connection was lost (a call that spans a loss failed because of it).
  const losses = useRef(new Map<string, number>());

  useEffect(() => {
    const controller = new AbortController();
    const opened: Connection[] = [];
    const unsubscribes: (() => void)[] = [];
    const start = async () => {
      const servers = await loadServers(controller.signal);
      dispatch({ type: 'configured', servers });
      await Promise.all(
        servers.map((config) =>
          linkServer(config, {
            waitFor: runs.noting(config.name, inbox.waitFor),
            legacy,
            dispatch,
            signal: controller.signal,
            connections: connections.current,
            losses: losses.current,
            opened,
            unsubscribes,
          }),
        ),
      );
    };
    start().catch((error: unknown) => {
      if (!controller.signal.aborted) dispatch({ type: 'loadFailed', error: errorText(error) });
    });
    const connected = connections.current;
    return () => {
      controller.abort();
      for (const unsubscribe of unsubscribes) unsubscribe();
      runs.stop(new Error('The page closed its connections'));
      for (const connection of opened) void connection.close();
      connected.clear();
    };
  }, [inbox, legacy, runs]);

  // Runs (or runs again) one call; a call already running (same server and tool) is not started
  // again. Each run starts with no questions: what an earlier attempt asked ended with that attempt.
  const run = useCallback(
    (call: Omit<CallState, 'status' | 'text' | 'note' | 'questions'>) => {
      if (runs.busy(call.server, call.tool)) return;
      dispatch({ type: 'call', call: { ...call, status: 'running', questions: [] } });
      const losing = losses.current.get(call.server) ?? 0;
      runs.start(
        call.id,
        call.server,
        call.tool,
        starterOf(call.server, call.tool, {
          hostWaitFor: runs.noting(hostName, inbox.waitFor),
          connection: connections.current.get(call.server),
        }),
        () => (losses.current.get(call.server) ?? 0) > losing,
      );
    },
    [inbox, runs],
  );

  const callTool = useCallback(
    (server: string, tool: ToolEntry) =>
      run({ id: nextCall.current++, server, tool: tool.name, title: tool.title, attempt: 1 }),
    [run],
  );

  /** Aborts a running call: the bridge ends it and its open questions leave the list. */
  const cancelCall = useCallback((id: number) => void runs.cancel(id), [runs]);

  /** Runs a finished call again, in the same entry (not while the same call runs). */
  const retryCall = useCallback(
    (call: CallState) => {
      if (runs.running(call.id)) return;
      const { id, server, tool, title } = call;
      run({ id, server, tool, title, attempt: call.attempt + 1 });
    },
    [run, runs],
  );

  return { ...state, callTool, cancelCall, retryCall };
}
