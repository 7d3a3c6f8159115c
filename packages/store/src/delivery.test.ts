/**
 * What an answerer is told, and what an asker reads back: `submit` is true only once the asker read
 * the answer (a host killed with -9 leaves it unread: false once the row is closed, through the HTTP
 * endpoint too); a host started again under its name ends what its previous life left open; a
 * Request and an Answer come back from the database byte for byte; what no column can hold is
 * refused before anything is written.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { accept, parseRequest } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, startHost } from '../../http/src/__tests__/host';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { Store, StoreInbox } from './index';
import { createStore, maxAnswerBytes, postgresDriver } from './index';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const askerScript = fileURLToPath(new URL('./__fixtures__/asker.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

let server: PostgresServer;
let databases = 0;
const groups: number[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await server?.destroy();
});

async function freshDatabase(): Promise<string> {
  const name = `delivery_${++databases}`;
  await server.createDatabase(name);
  return server.url(name);
}

/** asker.ts in its own process group: asks `held` in `scope`, prints `asked`; kill() is kill -9. */
async function askerProcess(
  connectionString: string,
  scope: string,
  instance: string,
  leaseMs: number,
) {
  const args = [
    '--tsconfig',
    tsconfig,
    askerScript,
    connectionString,
    scope,
    instance,
    String(leaseMs),
  ];
  const child = spawn(tsx, args, { detached: true });
  groups.push(child.pid!);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  expect(first.value, stderr).toBe('asked');
  return {
    async kill() {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

const query = async (connectionString: string, text: string) => {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

describe('an answer nobody will read', () => {
  const open: Store[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });

  it('is refused, through the HTTP endpoint, once the asker (killed with -9 in its lease) is known gone', async () => {
    const connectionString = await freshDatabase();
    const asker = await askerProcess(connectionString, 'alice', 'asker', 4_000);
    const store = await createStore({
      driver: postgresDriver({ connectionString }),
      instance: 'b',
      leaseMs: 1_000,
      pollMs: 0,
    });
    open.push(store);
    const inboxes = new Map<string, Promise<StoreInbox>>();
    const http = await startHost({
      name: 'store inbox (PostgreSQL)',
      open: async () => ({
        inboxFor: (scope) => {
          if (!inboxes.has(scope)) inboxes.set(scope, store.inbox(scope));
          return inboxes.get(scope)!;
        },
        close: async () => {},
      }),
    });
    try {
      const inbox = await http.inboxFor('alice');
      await expect.poll(() => inbox.get('held')?.prompt).toBe('Still there?');
      await asker.kill();
      // Answered in the lease window: taken by the store, but its asker never reads it …
      const response = fetch(`${http.url}/requests/held/answer`, {
        method: 'POST',
        headers: { ...as('alice'), 'content-type': 'application/json' },
        body: JSON.stringify(accept('held', { here: true })),
      });
      // … so once its lease and the grace have run out, a sweep closes it, and the person is told.
      let settled = false;
      void response.finally(() => (settled = true));
      await expect
        .poll(
          async () => {
            await store.sweep();
            return settled;
          },
          { timeout: 30_000, interval: 250 },
        )
        .toBe(true);
      expect((await response).status).toBe(409);
      expect(
        await query(connectionString, `SELECT state, outcome, answered_by FROM waitfor_questions`),
      ).toEqual([{ state: 'closed', outcome: 'undelivered', answered_by: null }]);
    } finally {
      await http.close();
    }
  });

  it('is never asked for: a host started again under its name ends at once what its killed life left open', async () => {
    const connectionString = await freshDatabase();
    const asker = await askerProcess(connectionString, 'ops', 'host-1', 60_000);
    await asker.kill();
    // Long before the dead life's 60 s lease runs out.
    const again = await createStore({
      driver: postgresDriver({ connectionString }),
      instance: 'host-1',
      pollMs: 0,
    });
    open.push(again);
    const inbox = await again.inbox('ops');
    expect(inbox.getSnapshot()).toEqual([]);
    expect(await inbox.submit(accept('held'))).toBe(false);
    expect(await query(connectionString, `SELECT state, outcome FROM waitfor_questions`)).toEqual([
      { state: 'closed', outcome: 'closed' },
    ]);
  });
});

/** A form whose fields are not in alphabetical order, with text jsonb could not keep. */
const form: Request = {
  id: 'trip',
  kind: 'input',
  prompt: 'Plan the trip\u0000 (with a NUL)',
  data: {
    schema: {
      type: 'object',
      properties: {
        zeta: { type: 'string', title: 'Where to' },
        start: { type: 'string', format: 'date', title: 'From' },
        end: { type: 'string', format: 'date', title: 'To' },
        budget: { type: 'number', title: 'Budget per person and day' },
      },
      required: ['zeta', 'budget'],
    },
    origin: { server: 'travel', tool: 'plan', zz: 1, aa: 2 },
  },
};

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(server, { pollMs: 0 }) },
])('what the database gives back, on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it('is the Request that was asked and the Answer that was given, byte for byte', async () => {
    fleet = await open();
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');
    const waiting = inboxA.waitFor(form);
    await expect.poll(() => inboxB.get('trip')?.prompt).toBe(form.prompt);
    const asked = JSON.stringify(parseRequest(form));
    // Read back by another host from the row, and by a fresh reload.
    expect(JSON.stringify(inboxB.get('trip'))).toBe(asked);
    await inboxB.refresh();
    expect(JSON.stringify(inboxB.getSnapshot()[0])).toBe(asked);
    const answer = accept('trip', { zeta: 'Lisbon\u0000', budget: 90, start: '2027-05-01' });
    expect(await inboxB.submit(answer)).toBe(true);
    expect(JSON.stringify(await waiting)).toBe(JSON.stringify(answer));
  });

  it('refuses, before anything is written, what no column can hold and answers too large', async () => {
    fleet = await open();
    const inbox = await fleet.a.inbox('alice');
    await expect(
      inbox.waitFor({ id: 'a\u0000b', kind: 'question', prompt: 'NUL in the id' }),
    ).rejects.toMatchObject({ code: 'invalid_request', path: 'id' });
    await expect(
      inbox.waitFor({ id: 'kind', kind: 'q\u0000', prompt: 'NUL in the kind' }),
    ).rejects.toMatchObject({ code: 'invalid_request', path: 'kind' });
    expect(await fleet.query('SELECT count(*)::int AS n FROM waitfor_questions')).toEqual([
      { n: 0 },
    ]);
    const waiting = inbox.waitFor({ id: 'big', kind: 'question', prompt: 'Say a lot' });
    await expect.poll(() => inbox.get('big')).toBeDefined();
    const huge = accept('big', { text: 'x'.repeat(maxAnswerBytes) });
    await expect(inbox.submit(huge)).rejects.toMatchObject({ code: 'invalid_answer' });
    expect(() => inbox.answer(huge)).toThrow(expect.objectContaining({ code: 'invalid_answer' }));
    await expect(
      inbox.submit({ id: 'big', ok: false, reason: 'declined\u0000' }),
    ).rejects.toMatchObject({ code: 'invalid_answer' });
    expect(inbox.get('big')).toBeDefined();
    expect(await inbox.submit(accept('big', { text: 'short' }))).toBe(true);
    expect(await waiting).toEqual(accept('big', { text: 'short' }));
  });
});

it("is true even when the asker's read is announced before the answer's own reply arrives", async () => {
  // Under load PostgreSQL can send the commit's notices (and the asker can read the answer and
  // announce it) before the answering statement's reply reaches its host. This driver holds that
  // reply until the asker has read the answer, so the order is exactly that one.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  const { pgliteDriver } = await import('./__fixtures__/slowReply');
  const asker = await createStore({
    driver: pgliteDriver({ pglite: db }),
    instance: 'a',
    pollMs: 0,
  });
  const answerer = await createStore({
    driver: pgliteDriver({ pglite: db }, { holdAnswersUntilRead: true }),
    instance: 'b',
    pollMs: 0,
  });
  try {
    const inboxA = await asker.inbox('alice');
    const inboxB = await answerer.inbox('alice');
    const waiting = inboxA.waitFor({ id: 'fast', kind: 'question', prompt: 'Quick?' });
    await expect.poll(() => inboxB.get('fast')).toBeDefined();
    const won = inboxB.submit(accept('fast'));
    expect(await waiting).toEqual(accept('fast'));
    // No deadline of its own: a submit that never settles fails at the test's timeout.
    expect(await won).toBe(true);
  } finally {
    await Promise.all([asker.close(), answerer.close()]);
    await db.close();
  }
});
