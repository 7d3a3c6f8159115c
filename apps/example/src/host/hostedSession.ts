import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { createStore, pgliteDriver } from '@waitfor/store';
import type { DurableCalls, Store, StoreInbox } from '@waitfor/store';
import { hostName, hostTool, hostTools } from '../hostTool/hostTools.js';
import { startHostTrace } from '../trace.js';
import { errorText, isToolError, readableError, resultText } from '../web/resultText.js';
import { CallBook } from './hostedCalls.js';
import type { HostedCall } from './hostedCalls.js';
import type { ExampleServerConfig } from './startExample.js';

/** The scope every question of the example lives in (one person; a real host uses its sign-in). */
export const exampleScope = 'example';

/** A tool the page may run, with who runs it. */
export interface HostedTool {
  name: string;
  title: string;
  description: string;
}

/** One server as `GET /api/servers` shows it. */
export interface HostedServer {
  name: string;
  era: 'legacy' | 'modern' | 'host';
  state: 'connecting' | 'connected' | 'reconnecting' | 'closed';
  error?: string;
  tools: HostedTool[];
}

/** The host side of the hosted mode: its store, its connections and the calls it runs. */
export interface HostedSession {
  inbox: StoreInbox;
  servers(): HostedServer[];
  calls(): HostedCall[];
  /** Starts a call (or returns the tool's call already running); undefined when no such tool is listed. */
  run(server: string, tool: string): HostedCall | undefined;
  /** Cancels a running call (false: no such call running). */
  cancel(id: string): boolean;
  close(): Promise<void>;
}

interface Linked {
  config: ExampleServerConfig;
  connection?: Connection;
  error?: string;
  tools: HostedTool[];
}

const toolsOf = (listed: unknown): HostedTool[] =>
  ((listed as { tools?: unknown[] } | undefined)?.tools ?? []).map((tool) => {
    const entry = tool as { name: string; title?: string; description?: string };
    return {
      name: entry.name,
      title: entry.title ?? entry.name,
      description: entry.description ?? '',
    };
  });

// A call may wait for the person for a long time; the budget counts per wire leg (modern era) or
// pauses while a question is open (legacy era).
const callTimeout = 10 * 60_000;

/**
 * Opens the store in `dataDir` (PGlite), connects the host's MCP clients to both servers, and
 * resumes waiting for the durable calls a previous run of the host left running. With `trace`,
 * every call of its clients and every question it asks is printed to the console as a span.
 */
export async function startHostedSession(
  dataDir: string,
  servers: ExampleServerConfig[],
  trace = false,
): Promise<HostedSession> {
  // One fixed instance: a restarted host keeps the questions it asked (within the store's lease).
  const store: Store = await createStore({
    driver: pgliteDriver({ dataDir: join(dataDir, 'pglite') }),
    instance: 'example-host',
    pollMs: 5_000,
  });
  const inbox = await store.inbox(exampleScope, { answeredBy: exampleScope });
  const book = await CallBook.open(dataDir);
  // The bridges' calls (durable ones too: the store calls through the same clients) and every
  // question asked through the inbox's waitFor, the servers' and this app's tool's alike.
  const hostTrace = await startHostTrace(trace);
  const waitFor = hostTrace.instrument(inbox.waitFor);
  const linked = new Map<string, Linked>(
    servers.map((config) => [config.name, { config, tools: [] }]),
  );
  const clientOf = (name: string): object => {
    const connection = linked.get(name)?.connection;
    if (connection === undefined) throw new Error(`${name} is not connected yet`);
    return connection.client;
  };
  const durable: DurableCalls = store.durableCalls({ clientFor: clientOf, retryMs: 1_000 });
  const controllers = new Map<string, AbortController>();

  const connecting = Promise.all(
    servers.map(async (config) => {
      const entry = linked.get(config.name)!;
      try {
        entry.connection = await connect(
          { url: config.url },
          {
            waitFor,
            era: config.era,
            name: 'waitfor-example-host',
            serverName: config.name,
            reconnect: { maxAttempts: 3 },
            extensions: hostTrace.extensions(),
          },
        );
        entry.tools = toolsOf(await entry.connection.listTools());
      } catch (error) {
        entry.error = errorText(error);
      }
    }),
  );

  // Once the host stops, calls still running stay running in the book: a durable one is awaited
  // again by the next start; the others are marked ended by it.
  let closed = false;
  const finish = (call: HostedCall, patch: Partial<HostedCall>) => {
    if (closed) return;
    controllers.delete(call.id);
    book.put({ ...call, ...patch, progress: undefined });
  };

  /** Awaits a durable call's result and records it. */
  // Durable calls the person cancelled: the server still answers (with the cancelled questions),
  // but the call reads cancelled, as a cancelled call does in the in-page mode.
  const cancelled = new Set<string>();
  const awaitDurable = (call: HostedCall, durableId: string) => {
    durable.result(durableId).then(
      (result) =>
        finish(call, {
          status: cancelled.delete(call.id) ? 'cancelled' : isToolError(result) ? 'failed' : 'done',
          text: resultText(result),
        }),
      (error: unknown) => finish(call, { status: 'failed', text: readableError(error) }),
    );
  };

  // A previous run's calls: durable ones are awaited again; others ended with that process.
  await connecting;
  for (const call of book.list())
    if (call.status === 'running') {
      if (call.durableId !== undefined) awaitDurable(call, call.durableId);
      else finish(call, { status: 'failed', text: 'The host restarted: this call ended with it.' });
    }

  const start = (call: HostedCall) => {
    const controller = new AbortController();
    controllers.set(call.id, controller);
    book.put(call);
    const { signal } = controller;
    const ended = (error: unknown) =>
      finish(
        call,
        signal.aborted
          ? { status: 'cancelled', text: 'Cancelled from the page.' }
          : { status: 'failed', text: readableError(error) },
      );
    const tool = call.server === hostName ? hostTool(call.tool) : undefined;
    if (tool !== undefined) {
      tool.run(waitFor, signal).then((text) => finish(call, { status: 'done', text }), ended);
      return;
    }
    const entry = linked.get(call.server);
    if (entry?.config.era === 'modern') {
      // Modern era: durable, so the call survives a restart of this host.
      durable
        .callTool(exampleScope, call.server, { name: call.tool, arguments: {} })
        .then((started) => {
          if (started.status === 'complete') {
            const result = started.result;
            finish(call, {
              status: isToolError(result) ? 'failed' : 'done',
              text: resultText(result),
            });
            return;
          }
          const waiting = { ...call, durableId: started.callId };
          book.put(waiting);
          awaitDurable(waiting, started.callId);
        }, ended);
      return;
    }
    const connection = entry?.connection;
    if (connection === undefined) {
      finish(call, { status: 'failed', text: `Not connected to ${call.server}.` });
      return;
    }
    connection
      .callTool(
        { name: call.tool, arguments: {} },
        {
          signal,
          timeout: callTimeout,
          onprogress: (progress) => {
            const now = book.get(call.id);
            if (now?.status === 'running') book.put({ ...now, progress });
          },
        },
      )
      .then(
        (result: unknown) =>
          finish(call, {
            status: isToolError(result) ? 'failed' : 'done',
            text: resultText(result),
          }),
        ended,
      );
  };

  const listServers = (): HostedServer[] => [
    ...[...linked.values()].map((entry): HostedServer => ({
      name: entry.config.name,
      era: entry.config.era,
      state:
        entry.connection?.state.getSnapshot().status ?? (entry.error ? 'closed' : 'connecting'),
      ...(entry.error === undefined ? {} : { error: entry.error }),
      tools: entry.tools,
    })),
    {
      name: hostName,
      era: 'host',
      state: 'connected',
      tools: hostTools.map(({ name, title, description }) => ({ name, title, description })),
    },
  ];

  return {
    inbox,
    servers: listServers,
    calls: () => book.list(),
    run(server, tool) {
      const listed = listServers()
        .find((entry) => entry.name === server)
        ?.tools.find((entry) => entry.name === tool);
      if (listed === undefined) return undefined;
      // One call per tool at a time (as Run in the page): a page cannot pile up running calls.
      const running = book
        .list()
        .find(
          (entry) => entry.status === 'running' && entry.server === server && entry.tool === tool,
        );
      if (running !== undefined) return running;
      const call: HostedCall = {
        id: randomUUID(),
        server,
        tool,
        title: listed.title,
        status: 'running',
      };
      start(call);
      return book.get(call.id);
    },
    cancel(id) {
      const call = book.get(id);
      if (call?.status !== 'running') return false;
      const controller = controllers.get(id);
      if (controller !== undefined && call.durableId === undefined) {
        controller.abort(new Error('Cancelled from the page'));
        return true;
      }
      // A durable call holds no process: its open questions are cancelled, and it resumes so.
      cancelled.add(id);
      for (const request of inbox.getSnapshot()) {
        const origin = request.data?.origin;
        if (origin?.server === call.server && origin.tool === call.tool) inbox.cancel(request.id);
      }
      return true;
    },
    async close() {
      closed = true;
      for (const controller of controllers.values()) controller.abort(new Error('The host stops'));
      durable.close();
      await Promise.all(
        [...linked.values()].map((entry) => entry.connection?.close().catch(() => {})),
      );
      await book.flush();
      await store.close();
      await hostTrace.close();
    },
  };
}
