/**
 * A 2026-07-28 host over HTTP has no session, so in front of a 2025 server each of its calls runs on
 * an upstream session of its own (a push names no call). The gateway keeps one such session open
 * ahead of the next call (spareSession.ts) and closes a call's session after its result went out
 * (upstreamSessions.ts). Real SDK hosts (v2 pinned to 2026-07-28, v1 in the 2025 era) on the
 * gateway's HTTP endpoint, in front of the v1-SDK legacy fixture over Streamable HTTP (which says
 * which session each call came on) and, for a dying upstream, over stdio. The gateway's timers are
 * a manual clock: the spare's idle time and the close bounds pass only when a test advances it.
 */
import { fileURLToPath } from 'node:url';
import { ProtocolError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { gatewayTables } from './__fixtures__/gatewayTables';
import { openHost, textOf, tsxBinary, type Host, type Person } from './__fixtures__/hosts';
import { startLegacyHttpServer } from './__fixtures__/legacyServer';
import { manualClock } from './__fixtures__/manualClock';
import { createGateway, serveHttp, type Gateway, type GatewayOptions } from './index';
import { SPARE_IDLE_MS, SpareSession } from './spareSession';
import { CLOSE_BOUND_MS, isUnknownSession } from './upstreamSessions';

const legacyStdio = fileURLToPath(new URL('./__fixtures__/legacyServerStdio.ts', import.meta.url));

const accepts: Person = async () => ({ action: 'accept', content: { answer: 'yes' } });

/** A gateway (manual clock) on an HTTP endpoint in front of `upstream`, closed after the test. */
async function startGateway(
  upstream: GatewayOptions['upstream'],
  options: Partial<GatewayOptions>,
) {
  const clock = manualClock();
  const logs: string[] = [];
  const gateway = await createGateway({
    upstream,
    clock,
    log: (line) => logs.push(line),
    ...options,
  });
  const endpoint = await serveHttp(gateway);
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= endpoint.close().then(() => gateway.close()));
  onTestFinished(close);
  return { gateway, endpoint, clock, logs, close };
}

/** The same in front of the legacy fixture over Streamable HTTP. */
async function overHttp(options: Partial<GatewayOptions> = {}) {
  const upstream = await startLegacyHttpServer();
  onTestFinished(() => upstream.close());
  return { upstream, ...(await startGateway({ url: upstream.url }, options)) };
}

/** A host on `url`, closed after the test. */
async function hostOn(url: string, kind: Host['kind'] = 'v2-modern', person = accepts) {
  const host = await openHost(kind, { url }, person);
  onTestFinished(() => host.close());
  return host;
}

/** The gateway's spare, read by name like gatewayTables reads its tables (a rename fails loudly). */
function spareOf(gateway: Gateway): SpareSession {
  const spare = (gateway as unknown as { sessions?: { spare?: unknown } }).sessions?.spare;
  if (!(spare instanceof SpareSession)) throw new Error('the gateway has no spare any more');
  return spare;
}

/** The upstream session id of the open spare (none while it opens, or without one). */
const spareId = (gateway: Gateway): string | undefined =>
  (spareOf(gateway).connection?.client as { transport?: { sessionId?: string } } | undefined)
    ?.transport?.sessionId;

/** Wait for an open spare other than `not`; its upstream session id. */
async function readySpare(gateway: Gateway, not?: string): Promise<string> {
  await expect.poll(() => spareId(gateway) !== undefined && spareId(gateway) !== not).toBe(true);
  return spareId(gateway)!;
}

/**
 * One call and its session's close, so what follows runs on sessions of its own (the first call may
 * be lent the connection the gateway opened at start, which no call's end closes).
 */
async function warmUp(host: Host, gateway: Gateway): Promise<void> {
  expect(textOf(await host.callTool('ask_for', { who: 'W' }))).toBe('W:yes');
  await readySpare(gateway);
  await expect.poll(() => gatewayTables(gateway).closingSessions).toBe(0);
}

/** Advance the gateway's clock a close bound at a time until `read()` is `expected`. */
const pastCloseBounds = (
  clock: { advance(ms: number): void },
  read: () => number,
  expected: number,
) =>
  expect
    .poll(() => {
      clock.advance(CLOSE_BOUND_MS);
      return read();
    })
    .toBe(expected);

/** The sessions the tools/calls after the first `from` came on. */
const sessionsOfCalls = (
  upstream: { toolCalls: ReadonlyArray<{ sessionId?: string }> },
  from: number,
) => upstream.toolCalls.slice(from).map((call) => call.sessionId);

describe('the spare upstream session of 2026-07-28 hosts over HTTP (2025 upstream)', () => {
  test("a spare the server forgot (it restarted) is not the next call's end: that call runs on a fresh session", async () => {
    const { upstream, gateway, endpoint } = await overHttp();
    const host = await hostOn(endpoint.url);
    await warmUp(host, gateway);
    const stale = await readySpare(gateway);
    upstream.forgetSessions();
    const from = upstream.toolCalls.length;
    expect(textOf(await host.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    // Tried on the forgotten session (answered 404, so never run), then on a session of its own.
    const sessions = sessionsOfCalls(upstream, from);
    expect(sessions[0]).toBe(stale);
    expect(sessions).toHaveLength(2);
    expect(upstream.sessionIds).toContain(sessions[1]);
  });

  test('a call takes the spare, a fresh one replaces it, and its own session closes after', async () => {
    const { upstream, gateway, endpoint } = await overHttp();
    const host = await hostOn(endpoint.url);
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    const spare = await readySpare(gateway);
    expect(upstream.isOpen(spare)).toBe(true);
    const from = upstream.toolCalls.length;
    expect(textOf(await host.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    // The call ran on the session opened before it, its push reached it there.
    expect(sessionsOfCalls(upstream, from)).toEqual([spare]);
    const next = await readySpare(gateway, spare);
    expect(upstream.isOpen(next)).toBe(true);
    // The call's session (the old spare) is ended at the server once the call is over.
    await expect.poll(() => upstream.isOpen(spare)).toBe(false);
    await expect
      .poll(() => gatewayTables(gateway))
      .toMatchObject({ open: 0, upstreamSessions: 0, closingSessions: 0, spareSessions: 1 });
  });

  test('two calls at once: one takes the spare, the other opens its own; each push reaches its own call', async () => {
    const { upstream, gateway, endpoint } = await overHttp();
    let asked = 0;
    // Each person answers once both questions are out, so both calls are open at once.
    const person =
      (answer: string): Person =>
      async () => {
        asked += 1;
        await vi
          .waitFor(() => expect(asked).toBeGreaterThanOrEqual(2), { timeout: 5_000 })
          .catch(() => undefined);
        return { action: 'accept', content: { answer } };
      };
    const warm = await hostOn(endpoint.url);
    expect(textOf(await warm.callTool('ask_for', { who: 'W' }))).toBe('W:yes');
    const spare = await readySpare(gateway);
    const a = await hostOn(endpoint.url, 'v2-modern', person('from-A'));
    const b = await hostOn(endpoint.url, 'v2-modern', person('from-B'));
    const from = upstream.toolCalls.length;
    const results = await Promise.all([
      a.callTool('ask_for', { who: 'A' }),
      b.callTool('ask_for', { who: 'B' }),
    ]);
    expect(results.map(textOf)).toEqual(['A:from-A', 'B:from-B']);
    expect([a.asked, b.asked].map((asks) => asks.map((params) => params['message']))).toEqual([
      ['A question for A'],
      ['A question for B'],
    ]);
    const sessions = sessionsOfCalls(upstream, from);
    expect(sessions).toContain(spare);
    expect(new Set(sessions).size).toBe(2);
  });

  test('a spare not taken closes after SPARE_IDLE_MS; the next call opens its own', async () => {
    const { upstream, gateway, endpoint, clock } = await overHttp();
    const host = await hostOn(endpoint.url);
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    const spare = await readySpare(gateway);
    // Nothing else on the clock meanwhile: the call's own session has closed.
    await expect.poll(() => gatewayTables(gateway).closingSessions).toBe(0);
    clock.advance(SPARE_IDLE_MS - 1);
    expect(gatewayTables(gateway).spareSessions).toBe(1);
    expect(upstream.isOpen(spare)).toBe(true);
    clock.advance(1);
    expect(gatewayTables(gateway).spareSessions).toBe(0);
    await expect.poll(() => upstream.isOpen(spare)).toBe(false);
    const from = upstream.toolCalls.length;
    expect(textOf(await host.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    expect(sessionsOfCalls(upstream, from)).not.toContain(spare);
  });

  test('the spare counts against maxSessions: a host at the bound takes its place', async () => {
    const { upstream, gateway, endpoint, clock } = await overHttp({ maxSessions: 2 });
    const modern = await hostOn(endpoint.url);
    expect(textOf(await modern.callTool('ask_for', { who: 'M' }))).toBe('M:yes');
    const spare = await readySpare(gateway);
    await expect.poll(() => gatewayTables(gateway).closingSessions).toBe(0);
    expect(gatewayTables(gateway)).toMatchObject({ upstreamSessions: 0, spareSessions: 1 });
    // Two 2025 hosts, a session each: the second is the bound's last place, the spare's.
    const first = await hostOn(endpoint.url, 'v1');
    expect(textOf(await first.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    expect(gatewayTables(gateway)).toMatchObject({ upstreamSessions: 1, spareSessions: 1 });
    const second = await hostOn(endpoint.url, 'v1');
    expect(textOf(await second.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    expect(gatewayTables(gateway)).toMatchObject({ upstreamSessions: 2, spareSessions: 0 });
    await expect.poll(() => upstream.isOpen(spare)).toBe(false);
    // Full, no spare and nothing closing: a sessionless call is refused, and no spare opens.
    await expect(modern.callTool('ask_for', { who: 'N' })).rejects.toThrow(
      /too many upstream sessions/,
    );
    expect(gatewayTables(gateway).spareSessions).toBe(0);
    // A host that leaves frees its place once its session closed (its DELETE hangs here, so the
    // close runs to its bound): a call meanwhile waits for that close, and is not refused.
    upstream.deletes = 'hang';
    const transport = second.raw.transport as { terminateSession?: () => Promise<void> };
    await transport.terminateSession?.();
    await expect
      .poll(() => gatewayTables(gateway))
      .toMatchObject({ upstreamSessions: 1, closingSessions: 1 });
    const call = modern.callTool('ask_for', { who: 'C' });
    await expect.poll(() => gateway.open).toBe(1);
    expect(gatewayTables(gateway)).toMatchObject({ upstreamSessions: 1, closingSessions: 1 });
    upstream.deletes = 'answer';
    await pastCloseBounds(clock, () => gatewayTables(gateway).upstreamSessions, 2);
    expect(textOf(await call)).toBe('C:yes');
  });

  test("a call's result does not wait for its session's DELETE; a close that never ends is dropped, counted and logged", async () => {
    const { upstream, gateway, endpoint, clock, logs } = await overHttp();
    const host = await hostOn(endpoint.url);
    await warmUp(host, gateway);
    upstream.deletes = 'hang';
    // Were the result sent after the close, this call would wait for the DELETE's bound, which a
    // stopped clock never reaches.
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    expect(gatewayTables(gateway)).toMatchObject({ open: 0, closingSessions: 1 });
    expect(textOf(await host.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    expect(gatewayTables(gateway)).toMatchObject({ open: 0, closingSessions: 2 });
    upstream.deletes = 'answer';
    await pastCloseBounds(clock, () => gatewayTables(gateway).closingSessions, 0);
    expect(logs.filter((line) => line.includes('closed without its DELETE'))).toEqual([
      expect.stringMatching(/; 1 such closes so far\): dropped all the same$/),
      expect.stringMatching(/; 2 such closes so far\): dropped all the same$/),
    ]);
    expect(gatewayTables(gateway)).toMatchObject({ open: 0, upstreamSessions: 0 });
  });

  test('a DELETE the server refuses is counted and logged; the session is dropped all the same', async () => {
    const { upstream, gateway, endpoint, logs } = await overHttp();
    const host = await hostOn(endpoint.url);
    await warmUp(host, gateway);
    upstream.deletes = 'fail';
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    await expect.poll(() => logs.filter((line) => line.includes('its DELETE')).length).toBe(1);
    expect(logs.filter((line) => line.includes('its DELETE'))).toEqual([
      expect.stringMatching(
        /failed or over 5000 ms; 1 such closes so far\): dropped all the same$/,
      ),
    ]);
    expect(gatewayTables(gateway)).toMatchObject({
      open: 0,
      upstreamSessions: 0,
      closingSessions: 0,
    });
  });

  test('closing the gateway closes the spare', async () => {
    const { upstream, gateway, endpoint, close } = await overHttp();
    const host = await hostOn(endpoint.url);
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    const spare = await readySpare(gateway);
    await host.close();
    await close();
    expect(upstream.isOpen(spare)).toBe(false);
    expect(gatewayTables(gateway)).toMatchObject({ spareSessions: 0, closingSessions: 0 });
  });

  test('closing the gateway right after a call leaves no session but the first open upstream', async () => {
    const { upstream, endpoint, close } = await overHttp();
    const host = await hostOn(endpoint.url);
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    // The spare may still be opening: the close waits for it and ends it.
    await host.close();
    await close();
    expect(upstream.sessionIds.slice(1).filter((id) => upstream.isOpen(id))).toEqual([]);
  });
});

describe('a spare whose upstream died (stdio)', () => {
  test('is never handed to a call: it is closed, and the call opens its own', async () => {
    const { gateway, endpoint } = await startGateway(
      { command: tsxBinary, args: [legacyStdio] },
      {},
    );
    const host = await hostOn(endpoint.url);
    expect(textOf(await host.callTool('ask_for', { who: 'A' }))).toBe('A:yes');
    await expect.poll(() => spareOf(gateway).connection, { timeout: 30_000 }).toBeDefined();
    const dead = spareOf(gateway).connection!;
    const child = (dead.client as { transport?: { pid?: number | null } }).transport?.pid;
    expect(child).toEqual(expect.any(Number));
    // SIGTERM: tsx passes it on to the server it runs, and both exit.
    process.kill(child!, 'SIGTERM');
    await expect
      .poll(() => dead.state.getSnapshot().status, { timeout: 30_000 })
      .not.toBe('connected');
    expect(spareOf(gateway).connection).not.toBe(dead);
    expect(textOf(await host.callTool('ask_for', { who: 'B' }))).toBe('B:yes');
    expect(spareOf(gateway).connection).not.toBe(dead);
  }, 120_000);
});

describe('isUnknownSession: what makes a call run once more on a session of its own', () => {
  const sdkError = (status: number) =>
    new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint', {
      status,
    });
  test('an HTTP 404 of the SDK transport, on the error or down its cause chain', () => {
    expect(isUnknownSession(sdkError(404))).toBe(true);
    const wrapped = new Error('upstream call failed', { cause: sdkError(404) });
    expect(isUnknownSession(wrapped)).toBe(true);
  });
  test("anything else is not: a server's error data, another status, a chain deeper than 8, a cycle", () => {
    // A JSON-RPC error the server sent: its data is the server's to fill, and the call ran.
    expect(isUnknownSession(new ProtocolError(-32603, 'fetch failed', { status: 404 }))).toBe(
      false,
    );
    expect(isUnknownSession({ status: 404, data: { status: 404 } })).toBe(false);
    expect(isUnknownSession(sdkError(500))).toBe(false);
    expect(isUnknownSession(new Error('fetch failed'))).toBe(false);
    expect(isUnknownSession(undefined)).toBe(false);
    let deep: unknown = sdkError(404);
    for (let i = 0; i < 8; i++) deep = new Error('wrapped', { cause: deep });
    expect(isUnknownSession(deep)).toBe(false);
    const cycle: { cause?: unknown } = {};
    cycle.cause = cycle;
    expect(isUnknownSession(cycle)).toBe(false);
  });
});
