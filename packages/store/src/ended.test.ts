import type { Request } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import { postgresForFile } from './__fixtures__/postgresServer';
import type { StoreOptions } from './index';

const server = postgresForFile();

let next = 0;
const question = (extra: Partial<Request> = {}): Request => ({
  id: `e${++next}`,
  kind: 'approval',
  prompt: 'Deploy?',
  ...extra,
});

const cases = [
  { driver: 'pglite', open: (options?: StoreOptions) => drivers.pglite(options) },
  { driver: 'postgres', open: (options?: StoreOptions) => drivers.postgres(server(), options) },
] as const;

describe.each(cases)(
  'StoreInbox.ended on $driver: how a question ended, from its row',
  ({ open }) => {
    let fleet: Fleet | undefined;
    afterEach(async () => {
      await fleet?.close();
      fleet = undefined;
    });

    /** A fleet (`options`) whose host a asks alice a question that host b lists. */
    async function askedOnA(options: StoreOptions = { pollMs: 0 }) {
      fleet = await open(options);
      const inboxA = await fleet.a.inbox('alice');
      const inboxB = await fleet.b.inbox('alice');
      const request = question();
      const waiting = inboxA.waitFor(request);
      await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
      return { inboxA, inboxB, request, waiting };
    }

    /** As askedOnA, answered through host a's own inbox: it left a's list on its own write. */
    async function answeredOnA(options?: StoreOptions) {
      const asked = await askedOnA(options);
      expect(await asked.inboxA.submit(accept(asked.request))).toBe(true);
      await asked.waiting;
      return asked;
    }

    it('answered on another host: every inbox that listed it says answered, by whom, and when', async () => {
      fleet = await open({ pollMs: 0 });
      const inboxA = await fleet.a.inbox('alice');
      const inboxB = await fleet.b.inbox('alice', { answeredBy: 'user-7' });
      const request = question();
      const waiting = inboxA.waitFor(request);
      await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
      expect(await inboxA.ended(request.id)).toBeUndefined();
      expect(await inboxB.submit(decline(request))).toBe(true);
      await waiting;
      const [row] = await fleet.query('SELECT ended_at FROM waitfor_questions WHERE id = $1', [
        request.id,
      ]);
      const at = new Date(row!.ended_at as Date).getTime();
      const expected = { reason: 'answered', answeredBy: 'user-7', at };
      await expect.poll(() => inboxA.getSnapshot()).toEqual([]);
      // Both say it at once, the same as the row: A from the end notice, B from its own write.
      expect(inboxA.ended(request.id)).toEqual(expected);
      expect(inboxB.ended(request.id)).toEqual(expected);
      expect(inboxA.ended(request.id)).toBe(inboxA.ended(request.id));
    });

    it('a question that left on a reload (its notice missed) is known at once too, read as it left', async () => {
      const { inboxB, request } = await askedOnA();
      // Ended behind the store's back: no notice, only the reload finds it gone.
      await fleet!.query(
        `UPDATE waitfor_questions SET state = 'expired', outcome = 'expired', ended_at = now()
         WHERE id = $1`,
        [request.id],
      );
      await inboxB.refresh();
      expect(inboxB.getSnapshot()).toEqual([]);
      expect(inboxB.ended(request.id)).toMatchObject({ reason: 'expired' });
      expect(inboxB.ended(request.id)).not.toBeInstanceOf(Promise);
    });

    it("a row whose answered_by is too long for NOTIFY (an older store's) still ends; the others read it", async () => {
      const { inboxA, request, waiting } = await askedOnA();
      // Due now, with an answered_by a store before this bound could write: an end notice naming
      // it would pass NOTIFY's 8,000 bytes and fail the sweep's statement.
      await fleet!.query(
        `UPDATE waitfor_questions SET expires_at = now(), answered_by = repeat('x', 9000)
         WHERE id = $1`,
        [request.id],
      );
      await fleet!.b.sweep();
      await expect(waiting).resolves.toMatchObject({ ok: false, reason: 'expired' });
      await expect.poll(() => inboxA.getSnapshot()).toEqual([]);
      // A heard of it by its notice only (B's sweep reloads B's inboxes, never A's), and that
      // notice said only the state: A reads the row.
      const read = inboxA.ended(request.id);
      expect(read).toBeInstanceOf(Promise);
      expect(await read).toMatchObject({ reason: 'expired' });
    });

    it("refuses a submit's answeredBy the store cannot keep, with nothing changed", async () => {
      const { inboxA, request } = await askedOnA();
      for (const answeredBy of ['x'.repeat(257), 'a\u0000b', ''])
        await expect(inboxA.submit(accept(request), { answeredBy })).rejects.toMatchObject({
          code: 'invalid_options',
        });
      expect(await inboxA.submit(accept(request), { answeredBy: 'x'.repeat(256) })).toBe(true);
    });

    it('says cancelled for an aborted wait and a closed (undelivered) row, expired past expiresAt', async () => {
      fleet = await open({ pollMs: 0 });
      const inboxA = await fleet.a.inbox('alice');
      const inboxB = await fleet.b.inbox('alice');
      const controller = new AbortController();
      const aborted = question();
      const expiring = question({ expiresAt: new Date(Date.now() + 300).toISOString() });
      const closed = question();
      void inboxA.waitFor(aborted, { signal: controller.signal });
      for (const request of [expiring, closed]) void inboxA.waitFor(request);
      await expect.poll(() => inboxB.getSnapshot().length).toBe(3);
      controller.abort();
      await expect.poll(() => inboxB.ended(aborted.id)).toMatchObject({ reason: 'cancelled' });
      // The store's own expiry ends it (no sleep decides it: the poll waits for the store).
      await expect
        .poll(() => inboxB.ended(expiring.id), { timeout: 10_000 })
        .toMatchObject({
          reason: 'expired',
        });
      // An answered row its asker never read, closed by the sweep: the asker is gone.
      await fleet.query(
        `UPDATE waitfor_questions SET state = 'closed', outcome = 'undelivered', answered_by = 'x',
       ended_at = now() WHERE id = $1`,
        [closed.id],
      );
      await inboxB.refresh();
      expect(await inboxB.ended(closed.id)).toMatchObject({ reason: 'cancelled' });
      expect((await inboxB.ended(closed.id))?.answeredBy).toBeUndefined();
    });

    it('says nothing for an open row, an id it never listed, and a row opened again', async () => {
      fleet = await open({ pollMs: 0 });
      const inboxA = await fleet.a.inbox('alice');
      const request = question();
      const waiting = inboxA.waitFor(request);
      await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
      expect(await inboxA.ended(request.id)).toBeUndefined();
      expect(await inboxA.ended('never-asked')).toBeUndefined();
      expect(await inboxA.submit(accept(request))).toBe(true);
      await waiting;
      expect((await inboxA.ended(request.id))?.reason).toBe('answered');
      // The row open again, its request kept (as a task's answer given back is): the inbox lists
      // it again once it hears of it — here a reload (its notice missed), the notice below.
      await fleet.query(
        `UPDATE waitfor_questions SET state = 'open', request = $2::json WHERE id = $1`,
        [request.id, JSON.stringify(request)],
      );
      await inboxA.refresh();
      expect(inboxA.getSnapshot()).toEqual([request]);
      expect(await inboxA.ended(request.id)).toBeUndefined();
      // Another scope's inbox never sees it, ended or not.
      const bob = await fleet.b.inbox('bob');
      expect(await bob.ended(request.id)).toBeUndefined();
    });

    it('a row announced open again says nothing, even when the full inbox does not list it again', async () => {
      const { inboxA, request } = await answeredOnA({ pollMs: 0, maxOpen: 1 });
      expect(inboxA.ended(request.id)).toMatchObject({ reason: 'answered' });
      const other = question();
      void inboxA.waitFor(other);
      await expect.poll(() => inboxA.getSnapshot().map((open) => open.id)).toEqual([other.id]);
      // Given back as the store gives back a task's answer: one statement, announced `open`.
      await fleet!.query(
        `WITH given AS (UPDATE waitfor_questions SET state = 'open' WHERE id = $1
           RETURNING scope, id, seq)
         SELECT pg_notify('waitfor_store', json_build_object('s', scope, 'i', id,
           'q', seq::text, 'e', 'open')::text) FROM given`,
        [request.id],
      );
      await expect.poll(() => inboxA.ended(request.id)).toBeUndefined();
      expect(inboxA.getSnapshot().map((open) => open.id)).toEqual([other.id]);
    });

    it('forgets after ten minutes on the store clock: the row stays, the memory of it does not', async () => {
      let now = Date.now();
      const { inboxA, request } = await answeredOnA({ pollMs: 0, now: () => now });
      now += 10 * 60_000 - 1;
      expect((await inboxA.ended(request.id))?.reason).toBe('answered');
      now += 1;
      expect(await inboxA.ended(request.id)).toBeUndefined();
    });
  },
);
