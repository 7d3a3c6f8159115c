/**
 * createGateway: one upstream MCP server (stdio or Streamable HTTP, reached through the bridge's
 * `connect`, so its auth and reconnection come with it) served to any number of hosts, each in its
 * own era. Lists, calls, prompts, resources, progress, list-changed notifications and cancellation
 * pass through; the upstream's questions reach each host in the host's era (see hostSide.ts).
 *
 * Routing. A 2025 (legacy) upstream's pushed question names no call, so a question may only ever
 * be given to a call of the host whose upstream session it arrived on: with a legacy upstream each
 * host has an upstream session of its own (`HostUpstream`), never shared with another host and
 * never reused after its host went away:
 * - a host with a session of its own (stdio, a 2025 host's HTTP session): one upstream session,
 *   opened at its first request and closed with the host's session;
 * - a 2026-07-28 host over HTTP has no session: each of its calls gets an upstream session of its
 *   own — the spare opened ahead of it when one is ready (spareSession.ts) — closed once the call's
 *   result went out, and its other requests (lists, completions) share one session on which no
 *   call ever runs, so a push arriving there has no call to go to and is cancelled.
 * The first host to need an upstream session is lent the connection the gateway made at start (so
 * a stdio host in front of a stdio server costs one child); the others connect anew, at most
 * `maxSessions` at once (upstreamSessions.ts opens, lends and closes them). Within one host, a push goes to that host's open call of the same tool,
 * else to its oldest open call (the bridge's candidate rule). A 2026-07-28 upstream names the call
 * of every question itself: all hosts share the one connection.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type LoggingLevel,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  cancel,
  type AbortSignalLike,
  type Request,
  type RequestOrigin,
  type WaitForContext,
} from '@waitfor/core';
import type { BridgeExtension, Connection } from '@waitfor/mcp-bridge';
import { GatewayCall } from './call';
import { HeldCalls, systemClock, type Clock } from './holds';
import {
  declineUnaskable,
  hostModes,
  hostRequests,
  isModernRequest,
  toLegacyHost,
  toModernHost,
  type CannotAsk,
  type HostSide,
} from './hostSide';
import { HostUpstream } from './hostUpstream';
import { subscribeResource, UpstreamChanges, UpstreamListen } from './listen';
import { logToCalls, requestedLevel } from './logging';
import type { Gateway, GatewayOptions } from './options';
import { registerPassThrough, relayedNotifications } from './passThrough';
import { callUpstream, forwardNotifications, nameOf } from './upstreamCall';
import { isUnknownSession, UpstreamSessions } from './upstreamSessions';
import { withUrlConsent } from './urlRequired';

type HandlerContext = { signal?: AbortSignalLike | undefined; origin: RequestOrigin };

export type { Gateway, GatewayOptions, Upstream } from './options';

class GatewayImpl implements Gateway, HostSide {
  readonly calls = new Set<GatewayCall>();
  readonly servers = new Set<Server>();
  readonly hosts = new WeakMap<Server, HostUpstream>();
  readonly sessions: UpstreamSessions;
  /** What 2026-07-28 hosts over HTTP hear on their listen streams (see listen.ts). */
  readonly changes = new UpstreamChanges();
  /**
   * Non-call requests of hosts without a session (2026-07-28 over HTTP): no call runs there; the
   * list changes it hears are theirs.
   */
  readonly stateless = new HostUpstream(undefined, (method, params) =>
    this.changes.publish(method, params),
  );
  upstreamListen!: UpstreamListen;
  readonly rawParams = new WeakMap<Request, Record<string, unknown>>();
  readonly holds: HeldCalls;
  readonly holdMs: number;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  readonly cannotAsk: CannotAsk;

  constructor(readonly options: GatewayOptions) {
    this.holdMs = options.holdMs ?? 600_000;
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? ((line) => process.stderr.write(`waitfor-gateway: ${line}\n`));
    this.cannotAsk = options.cannotAsk ?? declineUnaskable;
    this.holds = new HeldCalls({
      holdMs: this.holdMs,
      maxHeld: options.maxHeld ?? 64,
      clock: this.clock,
      log: this.log,
      ...(options.key === undefined ? {} : { key: options.key }),
    });
    this.sessions = new UpstreamSessions(
      options,
      this.clock,
      (host) => ({
        waitFor: (request, asked) => this.route(host, request, asked),
        ...this.hostHandlers(() => host),
        extensions: [this.extension(host)],
      }),
      this.log,
    );
  }

  get connection(): Connection {
    return this.sessions.connection;
  }

  /** The host the first connection is lent to, if any. */
  get lentTo(): HostUpstream | undefined {
    return this.sessions.lentTo;
  }

  get held(): number {
    return this.holds.size;
  }

  get open(): number {
    return this.calls.size;
  }

  /**
   * The extension that keeps each question's own params (the server's, either era: route() and
   * callUpstream hand them to the call) and relays the upstream's notifications: those of a
   * host's own session to that host, those of the first connection to every host when the
   * upstream is 2026-07-28 (one connection for all), else to the host it is lent to.
   */
  extension(host?: HostUpstream): BridgeExtension {
    const relay = (method: string, params: Record<string, unknown>) => {
      if (method === 'notifications/elicitation/complete')
        (host ?? this.lentTo)?.completions.complete(params['elicitationId']);
      if (method === 'notifications/message' && this.logsOfCalls(host, params)) return;
      if (host !== undefined) host.notify(method, params);
      else if (this.connection?.era === 'modern') {
        // No host with a connection subscribes on a 2026-07-28 upstream: its updates are the listens'.
        if (method !== 'notifications/resources/updated') this.broadcast(method, params);
        this.changes.publish(method, params);
      } else this.lentTo?.notify(method, params);
    };
    return {
      name: 'waitfor-gateway',
      inboundRequest: (request, params) => {
        this.rawParams.set(request, params);
        return request;
      },
      setup: (extensionHost) => {
        const offs = relayedNotifications.map((method) =>
          extensionHost.onNotification(method, (params) => relay(method, params)),
        );
        return () => offs.forEach((off) => off());
      },
    };
  }

  /**
   * A log line that names no host goes to the calls it may belong to (logging.ts): every open call
   * on a 2026-07-28 upstream, the calls of a session with no host-facing server of its own (a
   * 2026-07-28 host's call over HTTP). Returns whether it was handled so.
   */
  logsOfCalls(host: HostUpstream | undefined, params: Record<string, unknown>): boolean {
    if (this.connection?.era === 'modern') {
      logToCalls(this.calls, params);
      return true;
    }
    const owner = host ?? this.lentTo;
    if (owner === undefined || owner.server !== undefined) return false;
    logToCalls(owner.calls, params);
    return true;
  }

  /** The host's logging/setLevel: kept for its calls, and told to a 2025 upstream on its session. */
  setLevel(server: Server) {
    return async (request: { params: { level: LoggingLevel } }, ctx: ServerContext) => {
      const host = this.hosts.get(server);
      if (host === undefined) return {};
      host.logLevel = request.params.level;
      if (this.connection.era === 'legacy') {
        const client = (await this.sessions.of(host)).client as Client;
        await client.setLoggingLevel(request.params.level, { signal: ctx.mcpReq.signal });
      }
      return {};
    };
  }

  broadcast(method: string, params: Record<string, unknown>): void {
    for (const server of this.servers)
      server.notification({ method, params } as never).catch(() => undefined);
  }

  /**
   * A legacy push names no call: it goes to a call of the host whose session it came on — the
   * open call of its tool, else the oldest open call — and is cancelled when that host has none.
   */
  route(host: HostUpstream | undefined, request: Request, options?: WaitForContext) {
    const origin = request.data?.origin as
      { tool?: string; prompt?: string; resource?: string } | undefined;
    const name = origin?.tool ?? origin?.prompt ?? origin?.resource;
    const open = host === undefined ? [] : [...host.calls];
    const call = open.find((each) => each.name === name) ?? open[0];
    if (call === undefined) {
      this.log(`a question arrived outside any relayed call: cancelled ("${request.prompt}")`);
      return Promise.resolve(cancel(request));
    }
    return call.ask(request, options?.signal, this.rawParams.get(request));
  }

  /** The same for a legacy push of sampling/createMessage or roots/list (refused outside any call). */
  routeRequest(
    host: HostUpstream | undefined,
    method: 'sampling/createMessage' | 'roots/list',
    params: Record<string, unknown>,
    context: { signal?: AbortSignalLike | undefined; origin: RequestOrigin },
  ): Promise<Record<string, unknown>> {
    const open = host === undefined ? [] : [...host.calls];
    const name = context.origin.tool ?? context.origin.prompt ?? context.origin.resource;
    const call = open.find((each) => each.name === name) ?? open[0];
    if (call === undefined)
      return Promise.reject(
        new ProtocolError(ProtocolErrorCode.InvalidRequest, `${method} outside any relayed call`),
      );
    return call.relay(method, params, context.signal);
  }

  /** The sampling and roots handlers of an upstream session whose pushes belong to `host()`. */
  hostHandlers(host: () => HostUpstream | undefined) {
    return {
      sampling: (params: Record<string, unknown>, context: HandlerContext) =>
        this.routeRequest(host(), 'sampling/createMessage', params, context),
      roots: (context: HandlerContext) =>
        this.routeRequest(host(), 'roots/list', {}, context) as never,
    };
  }

  /** The waitFor of the first connection: its pushes belong to the host it is lent to. */
  routeLegacy = (request: Request, options?: WaitForContext) =>
    this.route(this.lentTo, request, options);

  /** Start a relayed call on `host`'s upstream (none: a session of its own for this call). */
  start(
    method: string,
    params: Record<string, unknown>,
    host?: HostUpstream,
    logLevel?: LoggingLevel,
  ): GatewayCall {
    const call = new GatewayCall(
      randomUUID(),
      method,
      nameOf(method, params),
      this.options.maxQuestions ?? 16,
    );
    call.arguments = params['arguments'];
    call.logLevel = logLevel;
    // A call of a host without a session runs on a session of its own: the spare, when ready.
    const lent = host === undefined ? this.sessions.forCall() : { owner: host, spare: false };
    let owner = lent.owner;
    this.calls.add(call);
    call.run(async (signal, onprogress) => {
      const run = () => this.runOn(owner, call, params, { signal, onprogress });
      try {
        try {
          return await run();
        } catch (error) {
          // A spare the server forgot while it waited (a restart): the call was answered 404 and
          // never ran there, so it runs once more, on a session of its own.
          if (!lent.spare || !isUnknownSession(error)) throw error;
          this.log(`a call's spare upstream session was unknown to the server: opened a new one`);
          this.sessions.release(owner);
          owner = new HostUpstream();
          return await run();
        }
      } finally {
        this.calls.delete(call);
        // Once per call, not per question: a server flooding questions cannot flood the log.
        const refused = call.refusals();
        if (refused !== undefined) this.log(refused);
        // Its own session closes after the result went out, not before (bounded and counted there).
        if (host === undefined) this.sessions.release(owner);
      }
    });
    return call;
  }

  /** Run `call` upstream on `owner`'s session; `owner` routes its pushes while it runs. */
  async runOn(
    owner: HostUpstream,
    call: GatewayCall,
    params: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress: Parameters<typeof callUpstream>[3]['onprogress'] },
  ): Promise<unknown> {
    owner.calls.add(call);
    const completion = {
      call,
      completions: owner.completions,
      clock: this.clock,
      completionMs: this.options.completionMs ?? 60_000,
    };
    try {
      const upstream = await this.sessions.of(owner);
      return await withUrlConsent(
        () =>
          callUpstream(
            call,
            params,
            upstream,
            { ...options, timeout: this.options.callTimeoutMs ?? 600_000 },
            this.rawParams,
          ),
        completion,
      );
    } finally {
      owner.calls.delete(call);
    }
  }

  /** The handler of a relayed tools/call, prompts/get or resources/read. */
  relay(server: Server, method: string) {
    return async (request: { params?: Record<string, unknown> }, ctx: ServerContext) => {
      const params = request.params ?? {};
      const held = isModernRequest(ctx) ? ctx.mcpReq.requestState<GatewayCall>() : undefined;
      let call: GatewayCall;
      if (held instanceof GatewayCall) {
        if (held.method !== method || held.name !== nameOf(method, params)) {
          held.cancel(new Error('retried as another request'));
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'Invalid or expired requestState',
          );
        }
        held.answer(ctx.mcpReq.inputResponses);
        call = held;
      } else {
        const host = this.hosts.get(server);
        // The level is the call's from its start: the upstream call is made once, with it.
        const logLevel = isModernRequest(ctx) ? requestedLevel(ctx) : host?.logLevel;
        call = this.start(method, params, host, logLevel);
        // A same-era host's answers on a first call go to the upstream's first round (call.ts).
        if (isModernRequest(ctx) && this.connection.era === 'modern')
          call.answerFirstRound(ctx.mcpReq.inputResponses);
        // A 2025 host that can show a URL takes a 2025 server's -32042 as it is.
        call.urlRequiredPassesThrough = !isModernRequest(ctx) && hostModes(server, ctx).has('url');
      }
      const sent = forwardNotifications(call, ctx);
      const stop = () => call.cancel(new Error('the host cancelled the call'));
      ctx.mcpReq.signal.addEventListener('abort', stop, { once: true });
      try {
        const modes = hostModes(server, ctx);
        const served = hostRequests(server, ctx);
        return isModernRequest(ctx)
          ? await toModernHost(this, call, modes, served)
          : await toLegacyHost(this, server, ctx, call, modes, served);
      } finally {
        call.progress = undefined;
        call.log = undefined;
        await sent();
        ctx.mcpReq.signal.removeEventListener('abort', stop);
      }
    };
  }

  createServer(options: { track?: boolean; resourceUpdates?: boolean } = {}): Server {
    const client = this.connection.client as Client;
    const info = client.getServerVersion() ?? {
      name: this.connection.serverName,
      version: '0.0.0',
    };
    const upstream = this.upstreamListen.narrow(client.getServerCapabilities() ?? {});
    const instructions = client.getInstructions();
    // Subscriptions where this host has an upstream session of its own (a 2025 upstream).
    const subscriptions = options.track !== false && this.connection.era === 'legacy';
    const server = new Server(
      { name: info.name, version: info.version },
      {
        capabilities: registerPassThrough.capabilities(
          upstream,
          subscriptions || options.resourceUpdates === true,
        ),
        ...(instructions === undefined ? {} : { instructions }),
        requestState: { verify: (state: string) => this.holds.take(state) },
        inputRequired: { legacyShim: false },
      },
    );
    const host = options.track === false ? undefined : new HostUpstream(server);
    registerPassThrough(
      this,
      server,
      upstream,
      async () => (await this.sessions.of(host ?? this.stateless)).client as Client,
      subscriptions,
    );
    if (host !== undefined) {
      this.hosts.set(server, host);
      this.servers.add(server);
      server.onclose = () => {
        this.servers.delete(server);
        void this.sessions.close(host);
      };
    }
    return server;
  }

  /** Hear the changes of hosts without a connection; a 2025 upstream's come on `stateless`. */
  onUpstreamChange(listener: (method: string, params: Record<string, unknown>) => void) {
    if (this.connection.era === 'legacy')
      this.sessions
        .of(this.stateless)
        .catch((error: unknown) =>
          this.log(`could not open the session list changes come on: ${String(error)}`),
        );
    return this.changes.subscribe(listener);
  }

  subscribeUpstream(uri: string, lost?: () => void, server?: Server): Promise<() => Promise<void>> {
    // A host with a session hears its updates on it (a stdio server's resources are its process's).
    const host = (server === undefined ? undefined : this.hosts.get(server)) ?? this.stateless;
    return subscribeResource(this.connection, () => this.sessions.of(host), uri, this.log, lost);
  }

  async close(): Promise<void> {
    await this.upstreamListen.close();
    const reason = new Error('the gateway closed');
    this.holds.clear(reason);
    for (const call of this.calls) call.cancel(reason);
    await Promise.all([...this.servers].map((server) => server.close().catch(() => undefined)));
    await this.sessions.closeAll();
  }
}

/** Connect to the upstream and return the gateway (serve hosts with `createServer()`, or `serveStdio`). */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = new GatewayImpl(options);
  await gateway.sessions.connect({
    waitFor: gateway.routeLegacy,
    ...gateway.hostHandlers(() => gateway.lentTo),
    extensions: [gateway.extension()],
  });
  gateway.upstreamListen = new UpstreamListen(gateway.connection, gateway.log);
  await gateway.upstreamListen.open();
  return gateway;
}
