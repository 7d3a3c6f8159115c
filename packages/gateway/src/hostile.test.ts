/**
 * The shared hostile table (mcp-bridge src/__fixtures__/hostileCases.ts) through the gateway: a
 * gateway over Streamable HTTP in front of the hostile server pinned to either era, called by real
 * SDK hosts of both generations (a v1 2025 host, a v2 host pinned to 2026-07-28). Each case must
 * end in a protocol-correct result or JSON-RPC error at the host, with the server counting as many
 * answers as the table says (never one twice); then the same gateway serves the next call, and no
 * promise rejects unhandled.
 *
 * How the gateway surfaces the bridge's ending (gatewayEnding below): a result passes through as
 * it is (a legacy server's refusal included: its `isError` result); a BridgeError becomes the
 * host's JSON-RPC error -32603 (the host's request was fine, its upstream failed), the upstream's
 * own message where it sent one. A person is the host's elicitation handler, so:
 * - a handler that throws is a JSON-RPC error to a v1 host's push, which the gateway answers
 *   upstream `cancel`; a v2 host's own input loop rejects its call instead and never retries, so
 *   the gateway holds the call until `holdMs` and then ends it upstream (its clock is the test's);
 * - an abort is the host's own call signal (the host's handler honours its signal: the v2 client
 *   awaits its handler before it looks at the call's signal, so one that ignores it keeps the call
 *   open in the host itself — not the gateway's doing); a v2 host's abort between legs reaches the
 *   gateway only as the missing retry, so it too ends at `holdMs`;
 * - `answersOther` does not exist for a host: it answers a push by its JSON-RPC id and a round by
 *   the gateway's own keys (forged and replayed states: sealed.test.ts);
 * - the gateway passes no `maxRounds`: `endless` stops at the bridge's default cap.
 */
import { DEFAULT_MAX_ROUNDS } from '@waitfor/core/tools';
import { describe, expect, test } from 'vitest';
import {
  answersSent,
  casesOf,
  entriesOf,
  sentIn,
  settle,
  type Era,
  type HostileCase,
  type Settled,
} from '../../mcp-bridge/src/__fixtures__/hostileCases';
import {
  failOnUnhandledRejections,
  resultText,
  withDeadline,
} from '../../mcp-bridge/src/__fixtures__/hostileHelpers';
import type { HostileLog } from '../../mcp-bridge/src/__fixtures__/hostileServer';
import { useHostileGateway } from './__fixtures__/hostileGateway';
import { manualClock } from './__fixtures__/manualClock';
import { openHost, type HostKind, type Person } from './__fixtures__/hosts';

failOnUnhandledRejections();

/** What the host ends in: a result (its text), a JSON-RPC error code, or its own rejection. */
type HostEnding = { result: string | RegExp } | { rpc: number } | { rejects: RegExp };

interface GatewayExpectation {
  ending: HostEnding;
  asked: number;
  sent: number;
  /** The host gave up without a word: the gateway holds the call until its hold expires. */
  abandoned: boolean;
}

/** What `item` must end in through the gateway for a `kind` host in front of an `era` server. */
function gatewayExpectation(item: HostileCase, kind: HostKind, era: Era): GatewayExpectation {
  const ending = item.ends[era]!;
  const asked = item.tool === 'endless' ? DEFAULT_MAX_ROUNDS : item.asked;
  const expectation = { asked, sent: asked === item.asked ? sentIn(item, era) : asked };
  if (item.person === 'throws') {
    if (kind === 'v1')
      return { ending: { result: '{"action":"cancel"}' }, asked, sent: 1, abandoned: false };
    // A legacy server's open push is answered cancel once the hold ends it; a modern one gets nothing.
    return {
      ending: { rejects: /the UI crashed/ },
      asked,
      sent: era === 'legacy' ? 1 : 0,
      abandoned: true,
    };
  }
  if (item.person === 'aborts')
    return {
      ending: { rejects: /the person walked away/ },
      ...expectation,
      abandoned: kind === 'v2-modern',
    };
  if ('result' in ending) return { ending, ...expectation, abandoned: false };
  return { ending: { rpc: -32603 }, ...expectation, abandoned: false };
}

function expectHostEnding(settled: Settled, ending: HostEnding): void {
  if ('result' in ending) {
    if ('error' in settled) throw new Error(`expected a result, got ${String(settled.error)}`);
    expect(resultText(settled.result)).toMatch(ending.result);
    return;
  }
  if ('result' in settled)
    throw new Error(`expected an error, got ${JSON.stringify(settled.result).slice(0, 300)}`);
  if ('rpc' in ending) expect((settled.error as { code?: unknown }).code).toBe(ending.rpc);
  else expect(String(settled.error)).toMatch(ending.rejects);
}

/** The host's person of `kind`; `aborts` aborts the host's call once asked. */
function hostPerson(kind: HostileCase['person'], call: AbortController): Person {
  return (_params, signal) => {
    if (kind === 'throws') return Promise.reject(new Error('the UI crashed'));
    if (kind === 'aborts') {
      call.abort(new Error('the person walked away'));
      return new Promise((_resolve, reject) => {
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    return Promise.resolve({ action: 'accept', content: { confirmed: true } });
  };
}

/** How the server's pushes for `tool` ended: 'answer <value>' or 'refusal <code>'. */
const pushEndings = (log: HostileLog, tool: string): string[] =>
  log.entries
    .filter((entry) => entry.tool === tool && entry.kind !== 'call')
    .map((entry) =>
      entry.kind === 'answer'
        ? `answer ${JSON.stringify(entry.value)}`
        : `refusal ${String((entry.value as { code?: unknown }).code)}`,
    );

const confirms: Person = async () => ({ action: 'accept', content: { confirmed: true } });

const HOLD_MS = 60_000;

const combos: Array<[HostKind, Era]> = [
  ['v1', 'legacy'],
  ['v1', 'modern'],
  ['v2-modern', 'legacy'],
  ['v2-modern', 'modern'],
];

describe.each(combos)('host %s × hostile upstream %s', (kind, era) => {
  const clock = manualClock();
  const setup = useHostileGateway(era, { clock, holdMs: HOLD_MS });
  const cases = casesOf(era).filter(([, item]) => item.person !== 'answersOther');

  test.each(cases)('%s', async (_title, item) => {
    const { log } = setup.upstream;
    log.entries.length = 0;
    const expected = gatewayExpectation(item, kind, era);
    const call = new AbortController();
    const host = await openHost(kind, { url: setup.endpoint.url }, hostPerson(item.person, call));
    try {
      const settled = await withDeadline(
        settle(host.callTool(item.tool, item.arguments ?? {}, { signal: call.signal })),
        30_000,
      );
      expectHostEnding(settled, expected.ending);
      expect(host.asked).toHaveLength(expected.asked);
      if (expected.abandoned) {
        expect(setup.gateway.held).toBe(1);
        clock.advance(HOLD_MS);
      }
      await expect.poll(() => setup.gateway.open, { timeout: 15_000 }).toBe(0);
      expect(setup.gateway.held).toBe(0);
      // A deadline for a loaded machine, not a measurement.
      const deadline = { timeout: 15_000 };
      if (era === 'legacy') {
        // Every push ends once — answered, or refused as the table says — and before its upstream
        // session closes: never with the closed connection (CONNECTION_CLOSED).
        const ends = expected.sent + (item.refused ?? 0);
        await expect.poll(() => pushEndings(log, item.tool).length, deadline).toBe(ends);
        expect(entriesOf(log, item.tool, 'refusal')).toHaveLength(item.refused ?? 0);
        expect(answersSent(log, item.tool, era)).toBe(expected.sent);
      } else
        await expect.poll(() => answersSent(log, item.tool, era), deadline).toBe(expected.sent);
    } finally {
      await host.close();
    }
    // The gateway survives and serves the next call.
    const next = await openHost(kind, { url: setup.endpoint.url }, confirms);
    try {
      expect(resultText(await next.callTool('confirm'))).toMatch(/"confirmed":true/);
    } finally {
      await next.close();
    }
  });
});
