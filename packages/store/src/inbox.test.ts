import type { Answer, Request } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { StoreOptions } from './index';
import { StoreError } from './index';

let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.destroy();
});

const form = {
  type: 'object',
  properties: { age: { type: 'integer', minimum: 0 } },
  required: ['age'],
};

let next = 0;
const question = (extra: Partial<Request> = {}): Request => ({
  id: `q${++next}`,
  kind: 'input',
  prompt: 'How old are you?',
  data: { schema: form, origin: { server: 'weather' } },
  ...extra,
});

const cases = [
  {
    driver: 'pglite',
    open: (options?: StoreOptions, b?: StoreOptions) => drivers.pglite(options, b),
  },
  {
    driver: 'postgres',
    open: (options?: StoreOptions, b?: StoreOptions) => drivers.postgres(server!, options, b),
  },
] as const;

describe.each(cases)('a store-backed inbox on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it('shows a question asked on A in B (by NOTIFY), answered on B, and A resolves with that answer', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().map((shown) => shown.id)).toEqual([request.id]);
    expect(inboxB.getSnapshot()[0]).toEqual(request);

    expect(await inboxB.submit(accept(request, { age: 42 }), { answeredBy: 'user-7' })).toBe(true);
    expect(await waiting).toEqual({ id: request.id, ok: true, data: { age: 42 } });
    // First answer wins: a second one, from either host, is refused.
    expect(await inboxA.submit(decline(request))).toBe(false);
    expect(await inboxB.submit(accept(request, { age: 1 }))).toBe(false);
    await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
    await expect.poll(() => inboxA.getSnapshot()).toEqual([]);
  });

  it('keeps the snapshot the same array until something changes, and tells subscribers', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const empty = inboxB.getSnapshot();
    expect(inboxB.getSnapshot()).toBe(empty);
    let calls = 0;
    const unsubscribe = inboxB.subscribe(() => calls++);
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    const listed = inboxB.getSnapshot();
    expect(calls).toBeGreaterThan(0);
    // A reload that finds nothing new keeps the very same array.
    await inboxB.refresh();
    expect(inboxB.getSnapshot()).toBe(listed);
    unsubscribe();
    expect(inboxA.answer(accept(request, { age: 3 }))).toBe(true);
    // Sent already: a second answer through the same inbox is refused at once.
    expect(inboxA.answer(accept(request, { age: 4 }))).toBe(false);
    expect(await waiting).toEqual(accept(request, { age: 3 }));
    await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
  });

  it('a throwing listener stops neither the next listener nor the inbox, and is reported to onError', async () => {
    const reported: StoreError[] = [];
    fleet = await open({ pollMs: 0, onError: (error) => reported.push(error) });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const failure = new Error('a broken view');
    inboxB.subscribe(() => {
      throw failure;
    });
    const heard: number[] = [];
    inboxB.subscribe(() => heard.push(inboxB.getSnapshot().length));
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    expect(heard).toContain(1);
    expect(reported.map((error) => [error.code, error.cause])).toContainEqual([
      'listener_failed',
      failure,
    ]);
    expect(await inboxB.submit(accept(request, { age: 1 }))).toBe(true);
    expect(await waiting).toEqual(accept(request, { age: 1 }));
  });

  it('refuses an answer that does not fit the form, with nothing changed', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);

    const refused = await inboxB.submit(accept(request, { age: 'old' })).catch((error) => error);
    expect(StoreError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'invalid_answer', errors: { age: expect.any(String) } });
    expect(() => inboxB.answer(accept(request, { age: -1 }))).toThrow(StoreError);
    const [row] = await fleet.query('SELECT state FROM waitfor_questions WHERE id = $1', [
      request.id,
    ]);
    expect(row).toEqual({ state: 'open' });
    expect(inboxB.getSnapshot()).toHaveLength(1);

    expect(await inboxB.submit(accept(request, { age: 5 }))).toBe(true);
    expect(await waiting).toEqual(accept(request, { age: 5 }));
  });

  it("takes a form answer's data as given: a required field with a default left out is refused", async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const withDefault = {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0, default: 30 }, note: { type: 'string' } },
      required: ['age'],
    };
    const request = question({ data: { schema: withDefault } });
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);

    const refused = await inboxB.submit(accept(request, { note: 'hi' })).catch((error) => error);
    expect(StoreError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'invalid_answer', errors: { age: 'Required.' } });
    expect(() => inboxB.answer(accept(request, {}))).toThrow(StoreError);
    const [row] = await fleet.query('SELECT state FROM waitfor_questions WHERE id = $1', [
      request.id,
    ]);
    expect(row).toEqual({ state: 'open' });

    // No data at all: the defaults apply, and it is taken.
    expect(await inboxB.submit(accept(request))).toBe(true);
    expect(await waiting).toEqual(accept(request));
  });

  it('never lets one scope read or answer the questions of another', async () => {
    fleet = await open({ pollMs: 0 });
    const alice = await fleet.a.inbox('alice');
    const bob = await fleet.b.inbox('bob');
    const request = question();
    const waiting = alice.waitFor(request);
    await expect.poll(() => alice.getSnapshot().length).toBe(1);
    // Bob's inbox, on the host that hears every NOTIFY, shows nothing and cannot answer it.
    await bob.refresh();
    expect(bob.getSnapshot()).toEqual([]);
    expect(bob.get(request.id)).toBeUndefined();
    expect(await bob.submit(accept(request, { age: 9 }))).toBe(false);
    expect(bob.cancel(request.id)).toBe(false);
    const bobLater = await fleet.b.inbox('bob');
    expect(bobLater.getSnapshot()).toEqual([]);
    const [row] = await fleet.query('SELECT state FROM waitfor_questions WHERE id = $1', [
      request.id,
    ]);
    expect(row).toEqual({ state: 'open' });

    expect(await alice.submit(decline(request))).toBe(true);
    expect(await waiting).toEqual(decline(request));
  });

  it('ends an expired question for everyone: any host sweeps, the asker resolves expired', async () => {
    // B's clock runs an hour ahead: its sweep finds A's question overdue before A's timer fires.
    let ahead = 0;
    fleet = await open({ pollMs: 0 }, { pollMs: 0, now: () => Date.now() + ahead });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question({ expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() });
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    ahead = 60 * 60_000;
    // Late by B's clock: refused, and the question ends as expired.
    expect(await inboxB.submit(accept(request, { age: 1 }))).toBe(false);
    expect(await waiting).toEqual({ id: request.id, ok: false, reason: 'expired' });
    await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
    await expect.poll(() => inboxA.getSnapshot()).toEqual([]);
    await fleet.b.sweep(); // idempotent: nothing left to end
    const [row] = await fleet.query('SELECT state, outcome FROM waitfor_questions WHERE id = $1', [
      request.id,
    ]);
    expect(row).toEqual({ state: 'expired', outcome: 'expired' });
  });

  it("ends a question at its expiresAt by the asker's own timer", async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    const answer = await inboxA.waitFor(request);
    expect(answer).toEqual({ id: request.id, ok: false, reason: 'expired' });
    await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
  });

  it('ends an aborted question as cancelled, and the other host drops it', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question();
    const controller = new AbortController();
    const waiting = inboxA.waitFor(request, { signal: controller.signal });
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    controller.abort(new Error('the tool call ended'));
    expect(await waiting).toEqual({ id: request.id, ok: false, reason: 'cancelled' });
    await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
    expect(await inboxB.submit(accept(request, { age: 2 }))).toBe(false);
    const [row] = await fleet.query('SELECT state FROM waitfor_questions WHERE id = $1', [
      request.id,
    ]);
    expect(row).toEqual({ state: 'cancelled' });
  });

  it('cancels through another host: the asker resolves cancelled', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.get(request.id)).toEqual(request);
    expect(inboxB.cancel(request.id)).toBe(true);
    expect(await waiting).toEqual({ id: request.id, ok: false, reason: 'cancelled' });
  });

  it('rejects an id already open in the scope, and opens it again once ended', async () => {
    fleet = await open({ pollMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const request = question();
    const first = inboxA.waitFor(request);
    await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
    await expect(inboxB.waitFor(request)).rejects.toMatchObject({ code: 'duplicate_request' });
    expect(await inboxB.submit(decline(request))).toBe(true);
    expect(await first).toEqual(decline(request));
    const again = inboxB.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    expect(await inboxA.submit(decline(request))).toBe(true);
    expect(await again).toEqual(decline(request));
  });

  it('keeps an audit without the answer data, and deletes it after the retention time', async () => {
    fleet = await open({ pollMs: 0, retainMs: 0 });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice', { answeredBy: 'user-7' });
    const request = question();
    const waiting = inboxA.waitFor(request);
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    expect(await inboxB.submit(accept(request, { age: 42 }))).toBe(true);
    const answer: Answer = await waiting;
    expect(answer.data).toEqual({ age: 42 });
    // Read by the asker, then its data goes (with the other answers read in the same turn).
    const audit = async () =>
      (
        await fleet!.query(
          `SELECT asked_by, answered_by, origin, outcome, state, answer, request,
            ended_at IS NOT NULL AS ended, delivered_at IS NOT NULL AS delivered
           FROM waitfor_questions WHERE id = $1`,
          [request.id],
        )
      )[0];
    await expect.poll(audit).toEqual({
      asked_by: 'a',
      answered_by: 'user-7',
      origin: { server: 'weather' },
      outcome: 'accepted',
      state: 'answered',
      // Delivered to the asker, then the data is gone: only who, when and the outcome stay.
      answer: { id: request.id, ok: true },
      request: null,
      ended: true,
      delivered: true,
    });
    await fleet.b.sweep();
    expect(await fleet.query('SELECT id FROM waitfor_questions')).toEqual([]);
  });
});
