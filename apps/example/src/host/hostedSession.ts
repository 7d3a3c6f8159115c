import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { createLegacySpec } from '@waitfor/legacy-spec';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { createStore, pgliteDriver } from '@waitfor/store';
import type { DurableCalls, Store, StoreInbox } from '@waitfor/store';
import type { AgentChat, AgentServer, AgentState } from '../agent/agentChat.js';
import { CallRuns } from '../calls/callRuns.js';
import type { RunState, Starter } from '../calls/callRuns.js';
import { starterOf, toolEnd } from '../calls/starters.js';
import { hostName, hostTools } from '../hostTool/hostTools.js';
import { startHostTrace } from '../trace.js';
import type { HostTrace } from '../trace.js';
import { stillWaiting } from '../web/callQuestions.js';
import { errorText } from '../web/resultText.js';
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

/**
 * The inbox the page answers through: the store's, with every answer noted on its call, and how a
 * question ended (so a late answer's 409 says it).
 */
export type PageInbox = Pick<
  StoreInbox,
  'waitFor' | 'getSnapshot' | 'subscribe' | 'answer' | 'submit' | 'cancel' | 'get' | 'ended'
>;

/** The host side of the hosted mode: its store, its connections and the calls it runs. */
export interface HostedSession {
  /** The inbox the page's endpoint serves. */
  inbox: PageInbox;
  servers(): HostedServer[];
  calls(): HostedCall[];
  /** Calls `listener` after any change of the servers or the calls; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Starts a call (or returns the tool's call already running); undefined when no such tool is listed. */
  run(server: string, tool: string): HostedCall | undefined;
  /** Runs an ended call again in its entry; undefined when there is no such call or it runs. */
  retry(id: string): HostedCall | undefined;
  /** Cancels a running call (false: no such call running). */
  cancel(id: string): boolean;
  /** The agent's conversation (empty until the first message). */
  agent(): AgentState;
  /** Sends the person's message to the agent; false while it answers the previous one. */
  sendAgent(text: string): Promise<boolean>;
  /** Stops the agent's turn, its tool call and its questions (false: it is idle). */
  stopAgent(): boolean;
  close(): Promise<void>;
}

interface Linked {
  config: ExampleServerConfig;
  connection?: Connection;
  error?: string;
  tools: HostedTool[];
  /** How often its connection was lost (a call that spans a loss failed because of it). */
  losses: number;
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

/** What the session's parts share. */
interface Host {
  store: Store;
  inbox: StoreInbox;
  book: CallBook;
  trace: HostTrace;
  legacy: LegacySpec;
  linked: Map<string, Linked>;
  durable: DurableCalls;
  runs: CallRuns<string>;
  /** The inbox's waitFor, traced when tracing: every question the host asks goes through it. */
  waitFor: StoreInbox['waitFor'];
  listeners: Set<() => void>;
  changed(): void;
  /** The agent mode, made on its first message (its module and connections load only then). */
  agent?: { chat: AgentChat; connections: Connection[] };
}

/**
 * Opens the store in `dataDir` (PGlite), connects the host's MCP clients to both servers (with
 * `@waitfor/legacy-spec`, as the page's own clients), and resumes waiting for the durable calls a
 * previous run of the host left running. With `trace`, every call of its clients and every
 * question it asks is printed to the console as a span.
 */
export async function startHostedSession(
  dataDir: string,
  servers: ExampleServerConfig[],
  trace = false,
): Promise<HostedSession> {
  const host = await openHost(dataDir, servers, trace);
  await Promise.all([...host.linked.values()].map((entry) => link(host, entry)));
  resumeCalls(host);
  return sessionOf(host);
}

async function openHost(
  dataDir: string,
  servers: ExampleServerConfig[],
  trace: boolean,
): Promise<Host> {
  // One fixed instance: a restarted host keeps the questions of its durable calls in its lease.
  const store = await createStore({
    driver: pgliteDriver({ dataDir: join(dataDir, 'pglite') }),
    instance: 'example-host',
    pollMs: 5_000,
  });
  const inbox = await store.inbox(exampleScope, { answeredBy: exampleScope });
  const book = await CallBook.open(dataDir);
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const linked = new Map<string, Linked>(
    servers.map((config) => [config.name, { config, tools: [], losses: 0 }]),
  );
  const clientFor = (name: string): Connection => {
    const connection = linked.get(name)?.connection;
    if (connection === undefined) throw new Error(`${name} is not connected yet`);
    return connection;
  };
  // A run's change is saved (with its questions, so a restart can withdraw them) and told to the page.
  const runs = new CallRuns<string>((id, state: RunState) => {
    const call = book.get(id);
    if (call === undefined) return;
    const ended = state.status !== 'running';
    book.put({ ...call, ...state, ...(ended ? { progress: undefined } : {}) });
    changed();
  });
  // Completion notifications settle a URL question still open; its consent shows "finish there".
  const legacy = createLegacySpec({ inbox });
  legacy.subscribe(changed);
  const hostTrace = await startHostTrace(trace);
  return {
    store,
    inbox,
    book,
    trace: hostTrace,
    legacy,
    linked,
    durable: store.durableCalls({ clientFor, retryMs: 1_000 }),
    runs,
    waitFor: hostTrace.instrument(inbox.waitFor),
    listeners,
    changed,
  };
}

/** Whether this host runs `server`'s calls durably (modern era): only those outlive it. */
const durableServer = (host: Host, server: unknown): boolean =>
  typeof server === 'string' && host.linked.get(server)?.config.era === 'modern';

/** Connects one server; a failure is kept to be shown in its panel. */
async function link(host: Host, entry: Linked): Promise<void> {
  const { config } = entry;
  try {
    const connection = await connect(
      { url: config.url },
      {
        waitFor: host.runs.noting(config.name, host.waitFor),
        era: config.era,
        name: 'waitfor-example-host',
        serverName: config.name,
        reconnect: { maxAttempts: 3 },
        extensions: host.trace.extensions(host.legacy.extension),
      },
    );
    entry.connection = connection;
    let previous = connection.state.getSnapshot().status;
    connection.state.subscribe(() => {
      const status = connection.state.getSnapshot().status;
      if (previous === 'connected' && status !== 'connected') entry.losses++;
      previous = status;
      host.changed();
    });
    entry.tools = toolsOf(await connection.listTools());
  } catch (error) {
    entry.error = errorText(error);
  }
  host.changed();
}

/**
 * A previous run's calls: durable ones are awaited again; the others ended with that process, and
 * so did every wait on their questions — those are cancelled, so no page shows a question nothing
 * will read.
 */
function resumeCalls(host: Host): void {
  const ended = new Set<string>();
  for (const call of host.book.list()) {
    if (call.status !== 'running') continue;
    if (call.durableId !== undefined) {
      host.runs.start(call.id, call.server, call.tool, durableStarter(host, call));
      continue;
    }
    for (const id of call.questions ?? []) ended.add(id);
    host.book.put({ ...call, status: 'failed', note: 'hostRestarted', questions: [] });
  }
  // Also any asked after the list was last saved: nothing of this process waits yet, so a question
  // not of a durable call has nobody to read its answer.
  for (const request of host.inbox.getSnapshot())
    if (
      ended.has(request.id) ||
      request.data?.agent === true ||
      !durableServer(host, request.data?.origin?.server)
    )
      host.inbox.cancel(request.id);
}

/**
 * A modern-era call run durably: it survives a restart of this host. Cancel call cancels its open
 * questions (no process holds it); it then resumes with them cancelled and reads cancelled.
 */
function durableStarter(host: Host, call: HostedCall): Starter {
  return async (signal) => {
    let durableId = call.durableId;
    if (durableId === undefined) {
      const started = await host.durable.callTool(exampleScope, call.server, {
        name: call.tool,
        arguments: {},
      });
      if (started.status === 'complete') return toolEnd(started.result);
      durableId = started.callId;
      const now = host.book.get(call.id);
      if (now !== undefined) host.book.put({ ...now, durableId });
    }
    const withdraw = () => {
      for (const request of host.inbox.getSnapshot()) {
        const origin = request.data?.origin;
        if (origin?.server === call.server && origin.tool === call.tool)
          host.inbox.cancel(request.id);
      }
    };
    signal.addEventListener('abort', withdraw, { once: true });
    if (signal.aborted) withdraw();
    try {
      return toolEnd(await host.durable.result(durableId));
    } finally {
      signal.removeEventListener('abort', withdraw);
    }
  };
}

/** What runs a call of `call.server`: durably for a modern-era server, else over its connection. */
function starterFor(host: Host, call: HostedCall): Starter | undefined {
  const entry = host.linked.get(call.server);
  if (durableServer(host, call.server)) return durableStarter(host, call);
  return starterOf(call.server, call.tool, {
    hostWaitFor: host.runs.noting(hostName, host.waitFor),
    connection: entry?.connection,
    onprogress: (progress) => {
      const now = host.book.get(call.id);
      if (now?.status !== 'running') return;
      host.book.put({ ...now, progress });
      host.changed();
    },
  });
}

/** Starts a run of a call already in the book. */
function startRun(host: Host, call: HostedCall): void {
  const entry = host.linked.get(call.server);
  const losing = entry?.losses ?? 0;
  host.runs.start(
    call.id,
    call.server,
    call.tool,
    starterFor(host, call),
    () => (entry?.losses ?? 0) > losing,
  );
}

function listServers(host: Host): HostedServer[] {
  return [
    ...[...host.linked.values()].map((entry): HostedServer => ({
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
}

/** The calls as the page lists them: a running call's URL steps being finished elsewhere too. */
function listCalls(host: Host): HostedCall[] {
  const elicitations = host.legacy.getSnapshot();
  return host.book.list().map((call) => {
    if (call.status !== 'running' || (call.questions ?? []).length === 0) return call;
    const waits = stillWaiting(elicitations, [{ ...call, questions: call.questions ?? [] }]);
    return waits.length === 0
      ? call
      : {
          ...call,
          waits: waits.map((entry) => ({
            id: entry.request.id,
            server: entry.server,
            prompt: entry.request.prompt,
          })),
        };
  });
}

/** The store inbox, with every answer the page gives noted on its call (a durable call's too). */
function pageInbox(host: Host): PageInbox {
  const { inbox, runs } = host;
  const note = (request: Request | undefined, answer: Answer) => {
    // The agent's questions are no Run's: its conversation shows how they ended.
    if (request?.data?.agent === true) return;
    const server = request?.data?.origin?.server;
    if (request !== undefined && typeof server === 'string') runs.answered(server, request, answer);
  };
  return {
    waitFor: inbox.waitFor,
    getSnapshot: () => inbox.getSnapshot(),
    subscribe: (listener) => inbox.subscribe(listener),
    get: (id) => inbox.get(id),
    cancel: (id) => inbox.cancel(id),
    ended: (id) => inbox.ended(id),
    answer(answer) {
      const request = inbox.get(answer.id);
      const sent = inbox.answer(answer);
      if (sent) note(request, answer);
      return sent;
    },
    async submit(answer, options) {
      const request = inbox.get(answer.id);
      const won = await inbox.submit(answer, options);
      if (won) note(request, answer);
      return won;
    },
  };
}

function sessionOf(host: Host): HostedSession {
  const { book, runs } = host;
  let closed = false;
  return {
    inbox: pageInbox(host),
    servers: () => listServers(host),
    calls: () => listCalls(host),
    subscribe(listener) {
      host.listeners.add(listener);
      return () => void host.listeners.delete(listener);
    },
    run(server, tool) {
      const listed = listServers(host)
        .find((entry) => entry.name === server)
        ?.tools.find((entry) => entry.name === tool);
      if (listed === undefined || closed) return undefined;
      // One call per tool at a time (as Run in the page): a page cannot pile up running calls.
      const running = book
        .list()
        .find((call) => call.status === 'running' && call.server === server && call.tool === tool);
      if (running !== undefined) return running;
      const call: HostedCall = {
        id: randomUUID(),
        server,
        tool,
        title: listed.title,
        status: 'running',
        attempt: 1,
      };
      book.put(call);
      startRun(host, call);
      host.changed();
      return book.get(call.id);
    },
    retry(id) {
      const call = book.get(id);
      if (call === undefined || call.status === 'running' || closed) return undefined;
      if (runs.busy(call.server, call.tool)) return undefined;
      const again: HostedCall = {
        id,
        server: call.server,
        tool: call.tool,
        title: call.title,
        status: 'running',
        attempt: call.attempt + 1,
      };
      book.put(again);
      startRun(host, again);
      host.changed();
      return book.get(id);
    },
    cancel: (id) => runs.cancel(id),
    agent: () => host.agent?.chat.state() ?? { status: 'idle', entries: [] },
    async sendAgent(text) {
      if (closed) return false;
      return (await agentOf(host)).chat.send(text);
    },
    stopAgent: () => host.agent?.chat.stop() ?? false,
    async close() {
      closed = true;
      host.agent?.chat.stop();
      // Calls still running stay running in the book: a durable one is awaited again by the next
      // start; the others are marked ended by it (and their questions withdrawn).
      runs.stop(new Error('The host stops'));
      host.durable.close();
      await Promise.all(
        [...host.linked.values()].map((entry) => entry.connection?.close().catch(() => {})),
      );
      await Promise.all(host.agent?.connections.map((connection) => connection.close()) ?? []);
      await book.flush();
      await host.store.close();
      await host.trace.close();
    },
  };
}

/** Tools of Deploy Console the agent runs only once the person approves (the AI SDK's approval). */
const approvedFirst: Readonly<Record<string, readonly string[]>> = {
  'Deploy Console': ['deploy_service', 'scale_service'],
};

/**
 * The agent mode, made on the first message: its module (and the AI SDK) load only then, and it
 * calls the servers on connections of its own, whose questions — and its approvals — are marked
 * `data.agent`, so a restart of the host withdraws them (the conversation lives in this process).
 */
async function agentOf(host: Host): Promise<NonNullable<Host['agent']>> {
  if (host.agent !== undefined) return host.agent;
  const { AgentChat } = await import('../agent/agentChat.js');
  if (host.agent !== undefined) return host.agent;
  const waitFor: WaitFor = (request, context) =>
    host.waitFor({ ...request, data: { ...request.data, agent: true } }, context);
  const connections: Connection[] = [];
  const byServer = new Map<string, Promise<Connection | undefined>>();
  const connectionOf = (config: ExampleServerConfig) => {
    let connecting = byServer.get(config.name);
    if (connecting === undefined) {
      connecting = connect(
        { url: config.url },
        {
          waitFor,
          era: config.era,
          name: 'waitfor-example-agent',
          serverName: config.name,
          reconnect: { maxAttempts: 3 },
          extensions: host.trace.extensions(host.legacy.extension),
        },
      ).then(
        (connection) => (connections.push(connection), connection),
        () => (byServer.delete(config.name), undefined),
      );
      byServer.set(config.name, connecting);
    }
    return connecting;
  };
  const servers = async (): Promise<AgentServer[]> => {
    const linked = await Promise.all(
      [...host.linked.values()].map(async (entry) => {
        const connection = await connectionOf(entry.config);
        const approve = approvedFirst[entry.config.name];
        return connection === undefined
          ? []
          : [{ source: connection, ...(approve && { approve }) }];
      }),
    );
    return linked.flat();
  };
  host.agent = { chat: new AgentChat({ servers, waitFor }, host.changed), connections };
  return host.agent;
}
