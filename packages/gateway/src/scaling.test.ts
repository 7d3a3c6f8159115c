/**
 * The bridge's scale cases (mcp-bridge src/__fixtures__/scaleCases.ts) through the gateway: a
 * gateway over Streamable HTTP in front of the hostile server pinned to either era
 * (`many_questions {size}`: one 2026-07-28 round of `size` inputRequests, or `size` concurrent
 * 2025 pushes in one call), called by real SDK hosts of both generations (a v1 2025 host, a v2
 * host pinned to 2026-07-28). A modern host in front of a 2025 upstream is the held call: the
 * pushes reach it as rounds of `input_required`, each retry answering one.
 *
 * - Raised bound (`maxQuestions` and the bridge's `inputRequests` at the largest size): 100,
 *   1,000 and the largest size cost the same per question — the most listeners waitfor's code
 *   (gateway and bridge alike: one process) holds on one signal does not grow — with no process
 *   warning, and once the call and its host are gone the gateway's tables and the upstream's
 *   sessions are as they were before.
 * - Default bound (16 open questions per call): 100 questions at once reach the host as 16, the
 *   other 84 are cancelled upstream, the gateway's log says so in one line, and the call still
 *   ends with the upstream's result.
 *
 * The host's person answers nothing until all `size` questions are open at the host — one round
 * of a 2026-07-28 upstream, or every push of a 2025 one pushed on to a 2025 host as it comes —
 * except a 2026-07-28 host in front of a 2025 upstream: the pushes reach the gateway in the reads
 * its stream makes of them, each `input_required` round holds what has arrived by then, and the
 * next round only comes after the host's retry, so that host answers each round at once. No time
 * is measured anywhere.
 */
import { describe, expect, it, onTestFinished, test } from 'vitest';
import type { Era } from '../../mcp-bridge/src/__fixtures__/hostileCases';
import type { HostileLog } from '../../mcp-bridge/src/__fixtures__/hostileServer';
import {
  countListeners,
  largestFor,
  listenerTally,
  MOST_LISTENERS,
  recordWarningLines,
  scaleSizes,
} from '../../mcp-bridge/src/__fixtures__/scaleCases';
import { startHostileHttpServer } from '../../mcp-bridge/src/__fixtures__/hostileHttp';
import { gatewayTables } from './__fixtures__/gatewayTables';
import { manualClock } from './__fixtures__/manualClock';
import { useHostileGateway, type HostileGatewaySetup } from './__fixtures__/hostileGateway';
import { openHost, textOf, type Host, type HostKind, type Person } from './__fixtures__/hosts';
import { createGateway, serveHttp } from './index';

const processWarnings = recordWarningLines();

const combos: Array<[HostKind, Era]> = [
  ['v1', 'legacy'],
  ['v1', 'modern'],
  ['v2-modern', 'legacy'],
  ['v2-modern', 'modern'],
];

const hostEra = (kind: HostKind): Era => (kind === 'v1' ? 'legacy' : 'modern');

const confirmed = { action: 'accept', content: { confirmed: true } };

/** A host's person who answers nothing until `count` questions are open, then every one. */
function patientHost(count: number): Person {
  const waiting: Array<() => void> = [];
  return () =>
    new Promise((resolve) => {
      waiting.push(() => resolve(confirmed));
      if (waiting.length === count) for (const answer of waiting.splice(0)) answer();
    });
}

const answersAtOnce: Person = async () => confirmed;

/** A host's person who answers nothing until `release()`, then everything. */
function gatedHost() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const person: Person = async () => {
    await gate;
    return confirmed;
  };
  return { person, release };
}

/** A host leaves as a well-behaved one does: its HTTP session is ended (DELETE), then closed. */
async function leave(host: Host): Promise<void> {
  const transport = host.raw.transport as { terminateSession?: () => Promise<void> } | undefined;
  await transport?.terminateSession?.();
  await host.close();
}

/**
 * What the gateway and its upstream hold: its tables and the upstream's 2025 sessions, leaving out
 * the one spare session the gateway keeps open for the next call of a sessionless host (it belongs
 * to no call, and comes after the first such call: spareSession.ts).
 */
const holdings = (setup: HostileGatewaySetup) => {
  const { spareSessions, ...tables } = gatewayTables(setup.gateway);
  return { ...tables, upstreamServerSessions: setup.upstream.sessionCount() - spareSessions };
};

/** The answers the 2025 upstream received for `tool`, by action. */
const pushAnswers = (log: HostileLog, tool: string, action: string) =>
  log.entries.filter(
    (entry) =>
      entry.tool === tool &&
      entry.kind === 'answer' &&
      (entry.value as { action?: unknown }).action === action,
  ).length;

describe.each(combos)('host %s × hostile upstream %s, bound raised', (kind, era) => {
  const largest = largestFor(hostEra(kind), era);
  const setup = useHostileGateway(era, {
    maxQuestions: largest,
    connect: { limits: { inputRequests: largest } },
  });
  const tally = listenerTally();

  it.each(scaleSizes(hostEra(kind), era))(
    '%d questions open at once: no signal holding a listener each, nothing left, no warning',
    async (size) => {
      const before = holdings(setup);
      const mostListeners = countListeners();
      const person = kind === 'v2-modern' && era === 'legacy' ? answersAtOnce : patientHost(size);
      const host = await openHost(kind, { url: setup.endpoint.url }, person);
      try {
        const result = await host.callTool('many_questions', { size });
        expect(textOf(result)).toBe(`answered ${size}`);
        expect(host.asked).toHaveLength(size);
        // The call is over: nothing of it is left in the gateway.
        expect(gatewayTables(setup.gateway)).toMatchObject({ open: 0, held: 0, statelessCalls: 0 });
        tally.record(size, mostListeners());
      } finally {
        await leave(host);
      }
      // The host is gone: so are its session at the gateway and the gateway's upstream session.
      await expect.poll(() => holdings(setup), { timeout: 30_000 }).toEqual(before);
      expect(await processWarnings()).toEqual([]);
    },
    // A deadline for a blocked loop on a loaded 2-core machine, not a measurement.
    240_000,
  );

  it('holds as many listeners on one signal at the largest size as at 100 (flat)', () => {
    tally.expectFlat(largest);
  });
});

describe.each(combos)('host %s × hostile upstream %s, default bound of 16', (kind, era) => {
  const setup = useHostileGateway(era);

  it('100 questions at once: 16 reach the host, the other 84 are cancelled upstream', async () => {
    const { log } = setup.upstream;
    log.entries.length = 0;
    const logged = setup.logs.length;
    const before = holdings(setup);
    const mostListeners = countListeners();
    const { person, release } = gatedHost();
    const host = await openHost(kind, { url: setup.endpoint.url }, person);
    try {
      const call = host.callTool('many_questions', { size: 100 });
      // Awaited below; a failed poll first must not leave it rejecting unhandled at close.
      call.catch(() => undefined);
      // A 2025 upstream hears each refusal at once; a 2026-07-28 one with the round's answers.
      // (Deadlines for a loaded machine, not measurements.)
      if (era === 'legacy')
        await expect
          .poll(() => pushAnswers(log, 'many_questions', 'cancel'), { timeout: 60_000 })
          .toBe(84);
      else await expect.poll(() => host.asked.length, { timeout: 60_000 }).toBe(16);
      release();
      const result = await call;
      expect(host.asked).toHaveLength(16);
      if (era === 'legacy') {
        expect(textOf(result)).toBe('answered 16');
        expect(pushAnswers(log, 'many_questions', 'accept')).toBe(16);
      } else {
        const retry = log.entries.find(
          (entry) => entry.tool === 'many_questions' && entry.inputResponses !== undefined,
        );
        const actions = Object.values(retry?.inputResponses ?? {}).map(
          (response) => (response as { action?: unknown }).action,
        );
        expect(actions.filter((action) => action === 'accept')).toHaveLength(16);
        expect(actions.filter((action) => action === 'cancel')).toHaveLength(84);
        expect(textOf(result)).toBe('answered 100');
      }
      expect(gatewayTables(setup.gateway)).toMatchObject({ open: 0, held: 0, statelessCalls: 0 });
      expect(mostListeners()).toBeLessThanOrEqual(MOST_LISTENERS);
      // The operator is told, in one line for the call, not one per refused question.
      expect(setup.logs.slice(logged).filter((line) => line.includes('refused'))).toEqual([
        'tools/call many_questions refused 84 questions upstream: 84 too many open questions in one call (maxQuestions 16)',
      ]);
    } finally {
      await leave(host);
    }
    await expect.poll(() => holdings(setup), { timeout: 30_000 }).toEqual(before);
    expect(await processWarnings()).toEqual([]);
  }, 120_000);
});

describe('2025 hosts that leave without ending their session (no DELETE)', () => {
  // The SDKs' `client.close()` sends no DELETE: such a host's session, its host-facing server and
  // (before a 2025 upstream) the upstream session opened for it are closed once the session has
  // been idle for `sessionIdleMs` (legacySessions.ts), so departed hosts never fill `maxSessions`.
  test('a third host connects after two left (maxSessions 2)', async () => {
    const upstream = await startHostileHttpServer();
    onTestFinished(() => upstream.close());
    const clock = manualClock();
    const gateway = await createGateway({
      upstream: { url: upstream.url },
      era: 'legacy',
      log: () => {},
    });
    onTestFinished(() => gateway.close());
    const endpoint = await serveHttp(gateway, { maxSessions: 2, sessionIdleMs: 60_000, clock });
    onTestFinished(() => endpoint.close());
    const before = { ...gatewayTables(gateway), upstreamServerSessions: upstream.sessionCount() };
    for (let left = 0; left < 2; left++) {
      const host = await openHost('v1', { url: endpoint.url }, answersAtOnce);
      expect(textOf(await host.callTool('confirm'))).toMatch(/"confirmed":true/);
      await host.close();
    }
    // Each session turns idle once the endpoint sees its host's streams close; a minute later on
    // the endpoint's clock it is gone, and with it what the gateway held for that host.
    await expect
      .poll(() => {
        clock.advance(60_000);
        return { ...gatewayTables(gateway), upstreamServerSessions: upstream.sessionCount() };
      })
      .toEqual(before);
    const third = await openHost('v1', { url: endpoint.url }, answersAtOnce);
    expect(textOf(await third.callTool('confirm'))).toMatch(/"confirmed":true/);
    await third.close();
  });
});
