/**
 * A model test of the store's transitions: random interleavings of asking, answering (accept and
 * decline), expiry, aborts, sweeps, lease loss and durable calls (claimed and resumed by any host)
 * over three hosts on one real PostgreSQL, each run in a schema of its own. After every run:
 * - every wait resolved exactly once, and with the outcome of its question's row;
 * - at most one `submit` per question row is true, and a true `submit` means the asker got exactly
 *   that answer (a durable call: its result carries it);
 * - no question is left open.
 */
import { accept, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
} from '../../mcp-bridge/src/__fixtures__/clients';
import type { OpenClient } from '../../mcp-bridge/src/__fixtures__/clients';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { DurableCalls, Store, StoreInbox } from './index';
import { createStore, postgresDriver } from './index';

const mcp = useDualEraServer();
let server: PostgresServer;
let connectionString: string;
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('model');
  connectionString = server.url('model');
});
afterAll(async () => {
  await server?.destroy();
});

const hostCount = 3;
const questionCount = 4;
const leaseMs = 300;

type Step =
  | { op: 'ask'; host: number; question: number; expiresIn: number }
  | { op: 'answer'; host: number; question: number; ok: boolean }
  | { op: 'abort'; question: number }
  | { op: 'tick' }
  | { op: 'sweep'; host: number }
  | { op: 'loseLease'; host: number }
  | { op: 'call'; host: number }
  | { op: 'answerCall'; host: number; ok: boolean };

const host = fc.integer({ min: 0, max: hostCount - 1 });
const question = fc.integer({ min: 0, max: questionCount - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('ask' as const),
    host,
    question,
    expiresIn: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ op: fc.constant('answer' as const), host, question, ok: fc.boolean() }),
  fc.record({ op: fc.constant('abort' as const), question }),
  fc.record({ op: fc.constant('tick' as const) }),
  fc.record({ op: fc.constant('sweep' as const), host }),
  fc.record({ op: fc.constant('loseLease' as const), host }),
  fc.record({ op: fc.constant('call' as const), host }),
  fc.record({ op: fc.constant('answerCall' as const), host, ok: fc.boolean() }),
);

interface Asked {
  request: Request;
  abort: AbortController;
  outcome: Promise<Answer>;
  resolutions: number;
  refused?: boolean;
}

interface Given {
  id: string;
  answer: Answer;
  won: Promise<boolean>;
}

const neverAsked = scriptedPerson(() => {
  throw new Error('durable calls must not ask in-process');
});

/** Fails loudly instead of hanging: a wait that never ends is a lost answer. */
const within = <T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not settle`)), ms).unref(),
    ),
  ]);

let run = 0;

/** One run: three hosts in a fresh schema, the steps two at a time, then every check. */
async function check(steps: Step[][]): Promise<void> {
  const schema = `model_${++run}`;
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const stores: Store[] = [];
  const inboxes: StoreInbox[] = [];
  const calls: DurableCalls[] = [];
  const opened: OpenClient[] = [];
  for (let i = 0; i < hostCount; i++) {
    const store = await createStore({
      driver: postgresDriver({ connectionString, max: 4 }),
      schema,
      instance: `h${i}`,
      leaseMs,
      pollMs: 0,
      now: () => clock.now,
    });
    stores.push(store);
    inboxes.push(await store.inbox('model'));
    const client = await openClient('v2-modern', 'http', { url: mcp.url }, neverAsked);
    opened.push(client);
    calls.push(store.durableCalls({ clientFor: () => client.bridge, leaseMs: 5_000 }));
  }
  const asked = new Map<number, Asked[]>();
  const given: Given[] = [];
  const durable = new Set<string>();
  const started: Promise<{ callId: string; status: string }>[] = [];

  const act = async (s: Step): Promise<void> => {
    switch (s.op) {
      case 'ask': {
        const previous = asked.get(s.question)?.at(-1);
        if (previous && previous.resolutions === 0) return;
        const request: Request = {
          id: `q${s.question}`,
          kind: 'input',
          prompt: `Question ${s.question}`,
          expiresAt: new Date(clock.now + s.expiresIn * 1000).toISOString(),
        };
        const abort = new AbortController();
        const entry: Asked = { request, abort, resolutions: 0, outcome: undefined as never };
        entry.outcome = inboxes[s.host]!.waitFor(request, { signal: abort.signal }).then(
          (answer) => {
            entry.resolutions++;
            return answer;
          },
          (error: unknown) => {
            // Two hosts asked the same id at the same moment: the second is refused, nothing else.
            expect(error).toMatchObject({ code: 'duplicate_request' });
            entry.refused = true;
            return undefined as never;
          },
        );
        asked.set(s.question, [...(asked.get(s.question) ?? []), entry]);
        await inboxes[s.host]!.refresh();
        return;
      }
      case 'answer': {
        const id = `q${s.question}`;
        const answer = s.ok ? accept(id, { by: `h${s.host}` }) : decline(id);
        given.push({ id, answer, won: inboxes[s.host]!.submit(answer).catch(() => false) });
        return;
      }
      case 'abort':
        asked.get(s.question)?.at(-1)?.abort.abort();
        return;
      case 'tick':
        clock.now += 1_000;
        return;
      case 'sweep':
        await stores[s.host]!.sweep();
        return;
      case 'loseLease':
        await lose(schema, s.host);
        return;
      case 'call':
        started.push(calls[s.host]!.callTool('model', 'fixture', { name: 'ask_form' }));
        return;
      case 'answerCall': {
        const open = inboxes[s.host]!.getSnapshot().find((r) => r.prompt === 'Who are you?');
        if (!open) return;
        const answer = s.ok ? accept(open, { name: `h${s.host}` }) : decline(open);
        durable.add(open.id);
        given.push({
          id: open.id,
          answer,
          won: inboxes[s.host]!.submit(answer).catch(() => false),
        });
        return;
      }
    }
  };

  try {
    for (const group of steps) await Promise.all(group.map(act));
    // Settle: every wait still open is aborted; every durable call's question is declined.
    for (const entries of asked.values()) for (const entry of entries) entry.abort.abort();
    const calledIds = await Promise.all(started.map((s) => within(s, 'a durable call start')));
    await expect
      .poll(async () => {
        for (const inbox of inboxes) await inbox.refresh();
        // Recorded like every other answer: a wait an abort had not ended yet may get this one.
        for (const open of inboxes[0]!.getSnapshot()) {
          const answer = decline(open);
          const won = inboxes[0]!.submit(answer).catch(() => false);
          if (open.prompt === 'Who are you?') durable.add(open.id);
          given.push({ id: open.id, answer, won });
          await won;
        }
        return inboxes[0]!.getSnapshot().length;
      })
      .toBe(0);
    await verify(asked, given, durable, calledIds, calls);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
    await Promise.all(opened.map((client) => client.close()));
  }
}

/** The lease of host `index` runs out now, as if it had been cut off (its heartbeat renews it). */
async function lose(schema: string, index: number): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query(
    `UPDATE ${schema}.waitfor_instances SET lease_until = now() - interval '1 hour' WHERE instance = $1`,
    [`h${index}`],
  );
  await client.end();
}

async function verify(
  asked: Map<number, Asked[]>,
  given: Given[],
  durable: Set<string>,
  started: { callId: string; status: string }[],
  calls: DurableCalls[],
): Promise<void> {
  const outcomes = new Map<Asked, Answer>();
  for (const entries of asked.values())
    for (const entry of entries) {
      const outcome = await within(entry.outcome, entry.request.id);
      if (!entry.refused) outcomes.set(entry, outcome);
    }
  const wins = await Promise.all(given.map((g) => within(g.won, `submit of ${g.id}`)));
  for (const [entry, outcome] of outcomes) {
    expect(entry.resolutions).toBe(1);
    const { id } = entry.request;
    const won = given.filter((g, i) => g.id === id && wins[i]);
    // An answer the asker got is the one a submit was told won.
    if (outcome.ok || outcome.reason === 'declined')
      expect(won.map((g) => g.answer)).toContainEqual(outcome);
  }
  // Every true submit reached its asker: for a waited-for question, some wait got exactly it.
  const received = [...outcomes.values()];
  const results = await Promise.all(
    started
      .filter((s) => s.status === 'waiting')
      .map((s) => within(calls[0]!.result(s.callId), `call ${s.callId}`)),
  );
  const texts = results.map((result) => textOf(result));
  for (const [i, g] of given.entries()) {
    if (!wins[i]) continue;
    if (!durable.has(g.id)) expect(received).toContainEqual(g.answer);
    else
      expect(texts).toContainEqual(
        g.answer.ok ? `accept:${JSON.stringify(g.answer.data)}` : 'decline',
      );
  }
  // At most one true per question row: as many trues per id as its asker had waits answered.
  for (const id of new Set(given.map((g) => g.id))) {
    const trues = given.filter((g, i) => g.id === id && wins[i]).length;
    const waits = durable.has(id) ? 1 : (asked.get(Number(id.slice(1)))?.length ?? 0);
    expect(trues).toBeLessThanOrEqual(waits);
  }
}

it('keeps one outcome per question, delivered to its asker, over random interleavings on three hosts', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(step, { minLength: 1, maxLength: 2 }), { minLength: 4, maxLength: 14 }),
      check,
    ),
    { numRuns: 20, endOnFailure: true },
  );
}, 600_000);
