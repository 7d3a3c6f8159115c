/**
 * createGateway: one upstream MCP server (stdio or Streamable HTTP, reached through the bridge's
 * `connect`, so its auth and reconnection come with it) served to any number of hosts, each in its
 * own era. Lists, calls, prompts, resources, progress, list-changed notifications and cancellation
 * pass through; the upstream's questions reach each host in the host's era (see hostSide.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { cancel, type Request, type WaitForContext } from '@waitfor/core';
import type { BridgeExtension, Connection, ConnectOptions } from '@waitfor/mcp-bridge';
import { connect, type StdioTarget } from '@waitfor/mcp-bridge/node';
import { GatewayCall } from './call';
import { HeldCalls, systemClock, type Clock } from './holds';
import {
  declineUnaskable,
  hostModes,
  isModernRequest,
  toLegacyHost,
  toModernHost,
  type CannotAsk,
  type HostSide,
} from './hostSide';
import { registerPassThrough, relayedNotifications } from './passThrough';

/** The upstream: a command to spawn (stdio) or a Streamable HTTP endpoint (with its auth). */
export type Upstream = StdioTarget | ({ url: string } & Record<string, unknown>);

/** Options of createGateway. */
export interface GatewayOptions {
  upstream: Upstream;
  /** The upstream's era: negotiate (default) or pin one. */
  era?: 'auto' | 'legacy' | 'modern';
  /** How long a question waits for the host (a held call for its retry, a push for its answer); default 10 minutes. */
  holdMs?: number;
  /** Calls held for a modern host's retry at once (default 64); past it a call fails at once. */
  maxHeld?: number;
  /** Open questions of one call (default 16); past it a question is cancelled upstream. */
  maxQuestions?: number;
  /** The upstream call's own time budget (bridge `timeout`; default 10 minutes). */
  callTimeoutMs?: number;
  /** Where the gateway says what it did (default: standard error). */
  log?: (line: string) => void;
  /** Timers (tests inject a fake clock). */
  clock?: Clock;
  /** The requestState HMAC key (default: 32 random bytes per gateway). */
  key?: Uint8Array;
  /** A question the host cannot be asked (default: declined upstream); createPage's asks the person. */
  cannotAsk?: CannotAsk;
  /** Passed to the bridge's connect (reconnect, limits, name, version). */
  connect?: Omit<ConnectOptions, 'waitFor' | 'era' | 'extensions'>;
}

/** A running gateway. */
export interface Gateway {
  /** The upstream connection (era, server name, state). */
  readonly connection: Connection;
  /**
   * A fresh host-facing server (one per host connection; both eras). `track: false` for a server
   * of one request (modern-era HTTP): it gets no upstream notifications.
   */
  createServer(options?: { track?: boolean }): Server;
  /** Calls held for a modern host's retry right now. */
  readonly held: number;
  /** Upstream calls in flight right now. */
  readonly open: number;
  close(): Promise<void>;
}

const nameOf = (method: string, params: Record<string, unknown>): string =>
  String(method === 'resources/read' ? params['uri'] : params['name']);

class GatewayImpl implements Gateway, HostSide {
  readonly calls = new Set<GatewayCall>();
  readonly servers = new Set<Server>();
  readonly rawParams = new WeakMap<Request, Record<string, unknown>>();
  readonly holds: HeldCalls;
  readonly holdMs: number;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  readonly cannotAsk: CannotAsk;
  connection!: Connection;

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
  }

  get held(): number {
    return this.holds.size;
  }

  get open(): number {
    return this.calls.size;
  }

  /** The extension that keeps a legacy push's own params and relays the upstream's notifications. */
  extension(): BridgeExtension {
    return {
      name: 'waitfor-gateway',
      legacyRequest: (request, params) => {
        this.rawParams.set(request, params);
        return request;
      },
      setup: (host) => {
        const offs = relayedNotifications.map((method) =>
          host.onNotification(method, (params) => this.broadcast(method, params)),
        );
        return () => offs.forEach((off) => off());
      },
    };
  }

  broadcast(method: string, params: Record<string, unknown>): void {
    for (const server of this.servers)
      server.notification({ method, params } as never).catch(() => undefined);
  }

  /** A legacy upstream's push names no call: the open call of its tool, else the oldest open call. */
  routeLegacy = (request: Request, options?: WaitForContext) => {
    const origin = request.data?.origin as
      { tool?: string; prompt?: string; resource?: string } | undefined;
    const name = origin?.tool ?? origin?.prompt ?? origin?.resource;
    const open = [...this.calls];
    const call = open.find((each) => each.name === name) ?? open[0];
    if (call === undefined) {
      this.log(`a question arrived outside any relayed call: cancelled ("${request.prompt}")`);
      return Promise.resolve(cancel(request));
    }
    return call.ask(request, options?.signal, this.rawParams.get(request));
  };

  start(method: string, params: Record<string, unknown>): GatewayCall {
    const call = new GatewayCall(
      randomUUID(),
      method,
      nameOf(method, params),
      this.options.maxQuestions ?? 16,
    );
    call.arguments = params['arguments'];
    this.calls.add(call);
    const connection = this.connection;
    call.run(async (signal, onprogress) => {
      const options = {
        signal,
        onprogress,
        timeout: this.options.callTimeoutMs ?? 600_000,
        ...(connection.era === 'modern'
          ? {
              waitFor: (request: Request, asked?: WaitForContext) =>
                call.ask(request, asked?.signal),
            }
          : {}),
      };
      try {
        if (method === 'tools/call')
          return await connection.callTool(
            { name: call.name, arguments: (params['arguments'] ?? {}) as Record<string, unknown> },
            options,
          );
        if (method === 'prompts/get')
          return await connection.getPrompt(
            { name: call.name, arguments: (params['arguments'] ?? {}) as Record<string, string> },
            options,
          );
        return await connection.readResource({ uri: call.name }, options);
      } finally {
        this.calls.delete(call);
      }
    });
    return call;
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
      } else call = this.start(method, params);
      const token = ctx.mcpReq._meta?.progressToken;
      // Progress goes out in order, and all of it before the leg's answer.
      let sent: Promise<unknown> = Promise.resolve();
      if (token !== undefined)
        call.progress = (progress) => {
          const params = { progressToken: token, ...progress };
          sent = sent.then(() =>
            ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined),
          );
        };
      const stop = () => call.cancel(new Error('the host cancelled the call'));
      ctx.mcpReq.signal.addEventListener('abort', stop, { once: true });
      try {
        const modes = hostModes(server, ctx);
        return isModernRequest(ctx)
          ? await toModernHost(this, call, modes)
          : await toLegacyHost(this, server, ctx, call, modes);
      } finally {
        await sent;
        ctx.mcpReq.signal.removeEventListener('abort', stop);
        call.progress = undefined;
      }
    };
  }

  createServer(options: { track?: boolean } = {}): Server {
    const client = this.connection.client as Client;
    const info = client.getServerVersion() ?? {
      name: this.connection.serverName,
      version: '0.0.0',
    };
    const upstream = client.getServerCapabilities() ?? {};
    const instructions = client.getInstructions();
    const server = new Server(
      { name: info.name, version: info.version },
      {
        capabilities: registerPassThrough.capabilities(upstream),
        ...(instructions === undefined ? {} : { instructions }),
        requestState: { verify: (state: string) => this.holds.take(state) },
        inputRequired: { legacyShim: false },
      },
    );
    registerPassThrough(this, server, client, upstream);
    if (options.track !== false) {
      this.servers.add(server);
      server.onclose = () => void this.servers.delete(server);
    }
    return server;
  }

  async close(): Promise<void> {
    const reason = new Error('the gateway closed');
    this.holds.clear(reason);
    for (const call of this.calls) call.cancel(reason);
    await Promise.all([...this.servers].map((server) => server.close().catch(() => undefined)));
    await this.connection.close();
  }
}

/** Connect to the upstream and return the gateway (serve hosts with `createServer()`, or `serveStdio`). */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = new GatewayImpl(options);
  gateway.connection = await connect(options.upstream as StdioTarget, {
    ...options.connect,
    era: options.era ?? 'auto',
    waitFor: gateway.routeLegacy,
    extensions: [gateway.extension()],
  });
  return gateway;
}
