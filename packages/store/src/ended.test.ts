import type { Request } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { StoreOptions } from './index';

let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.destroy();
});

let next = 0;
const question = (extra: Partial<Request> = {}): Request => ({
  id: `e${++next}`,
  kind: 'approval',
  prompt: 'Deploy?',
  ...extra,
});

const cases = [
  { driver: 'pglite', open: (options?: StoreOptions) => drivers.pglite(options) },
  { driver: 'postgres', open: (options?: StoreOptions) => drivers.postgres(server!, options) },
] as const;

describe.each(cases)(
  'StoreInbox.ended on $driver: how a question ended, from its row',
  ({ open }) => {
    let fleet: Fleet | undefined;
    afterEach(async () => {
      await fleet?.close();
      fleet = undefined;
    });

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
      expect(await inboxA.ended(request.id)).toEqual(expected);
      expect(await inboxB.ended(request.id)).toEqual(expected);
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
      // The row open again (as a task's answer given back is): its row says so, not a memory.
      await fleet.query(`UPDATE waitfor_questions SET state = 'open' WHERE id = $1`, [request.id]);
      expect(await inboxA.ended(request.id)).toBeUndefined();
      // Another scope's inbox never sees it, ended or not.
      const bob = await fleet.b.inbox('bob');
      expect(await bob.ended(request.id)).toBeUndefined();
    });

    it('forgets after ten minutes on the store clock: the row stays, the memory of it does not', async () => {
      let now = Date.now();
      fleet = await open({ pollMs: 0, now: () => now });
      const inboxA = await fleet.a.inbox('alice');
      const request = question();
      const waiting = inboxA.waitFor(request);
      await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
      expect(await inboxA.submit(accept(request))).toBe(true);
      await waiting;
      now += 10 * 60_000 - 1;
      expect((await inboxA.ended(request.id))?.reason).toBe('answered');
      now += 1;
      expect(await inboxA.ended(request.id)).toBeUndefined();
    });
  },
);
