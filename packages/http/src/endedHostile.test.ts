/**
 * What the remote inbox takes from a hostile or broken server's change events about how questions
 * ended: own keys of a plain map only, for ids it listed, with one of core's reasons; bounded
 * `answeredBy`; and its memory of them bounded by count and age (on a fake clock).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request as WaitforRequest } from '@waitfor/core';
import { afterEach, expect, it } from 'vitest';
import { encodeEvent } from './feed';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';

let server: Server | undefined;
let remote: RemoteInbox | undefined;
afterEach(async () => {
  remote?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

const question = (id: string): WaitforRequest => ({ id, kind: 'approval', prompt: `Do ${id}?` });

/**
 * A server that sends `events` (name, data) on its event stream, raw, then a last change adding
 * `done`, and holds the stream open. Resolves with the remote inbox following it.
 */
async function pageOf(events: [string, unknown][], now?: () => number): Promise<RemoteInbox> {
  const all: [string, unknown][] = [
    ...events,
    ['change', { added: [question('done')], removed: [] }],
  ];
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(
      all.map(([name, data], index) => encodeEvent(`e.${index}`, name, data)).join(''),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  remote = createRemoteInbox({
    url: `http://127.0.0.1:${port}/api/inbox`,
    ...(now ? { now } : {}),
  });
  await expect
    .poll(() => remote!.getSnapshot().map((open) => open.id), { timeout: 10_000 })
    .toContain('done');
  return remote;
}

it('takes only own keys, for listed ids, with a known reason; answeredBy only a short string', async () => {
  const ids = [
    'ok',
    'by-object',
    'by-huge',
    'bad-reason',
    'numeric-reason',
    'no-at',
    '__proto__',
    'toString',
    'absent',
  ];
  // Raw JSON text: `__proto__` here is an own key of the parsed map, as JSON.parse makes it.
  const ended = JSON.parse(`{
    "ok": { "reason": "expired", "at": 5 },
    "by-object": { "reason": "answered", "answeredBy": { "name": "Eve" }, "at": 6 },
    "by-huge": { "reason": "answered", "answeredBy": "${'x'.repeat(1001)}", "at": 7 },
    "bad-reason": { "reason": "exploded", "at": 8 },
    "numeric-reason": { "reason": 42, "at": 9 },
    "no-at": { "reason": "cancelled", "at": "yesterday" },
    "__proto__": { "reason": "cancelled", "at": 10 },
    "ghost": { "reason": "answered", "answeredBy": "Mallory", "at": 11 }
  }`) as unknown;
  const inbox = await pageOf(
    [
      ['snapshot', { requests: ids.map(question) }],
      ['change', { added: [], removed: [...ids, 'ghost'], ended }],
    ],
    () => 1_000,
  );
  expect(inbox.ended('ok')).toEqual({ reason: 'expired', at: 5 });
  expect(inbox.ended('by-object')).toEqual({ reason: 'answered', at: 6 });
  expect(inbox.ended('by-huge')).toEqual({ reason: 'answered', at: 7 });
  expect(inbox.ended('bad-reason')).toBeUndefined();
  expect(inbox.ended('numeric-reason')).toBeUndefined();
  // A time that is not a number is the page's own clock.
  expect(inbox.ended('no-at')).toEqual({ reason: 'cancelled', at: 1_000 });
  expect(inbox.ended('__proto__')).toEqual({ reason: 'cancelled', at: 10 });
  // The map's prototype has a `toString`; it is not an entry. No entry at all: nothing said.
  expect(inbox.ended('toString')).toBeUndefined();
  expect(inbox.ended('absent')).toBeUndefined();
  // An id this page never listed is not taken, whatever the map says.
  expect(inbox.ended('ghost')).toBeUndefined();
  expect(({} as { reason?: unknown }).reason).toBeUndefined();
});

it.each([
  ['an array', [{ reason: 'expired', at: 1 }]],
  ['a string', 'expired'],
  ['null', null],
  ['entries that are not records', { a: 'expired', b: ['expired'] }],
])('an `ended` that is %s is ignored; the removal still happens', async (_name, ended) => {
  const inbox = await pageOf([
    ['snapshot', { requests: [question('a'), question('b'), question('0')] }],
    ['change', { added: [], removed: ['a', 'b', '0'], ended }],
  ]);
  expect(inbox.getSnapshot().map((open) => open.id)).toEqual(['done']);
  for (const id of ['a', 'b', '0']) expect(inbox.ended(id)).toBeUndefined();
});

it('a huge map: only its removed ids are taken, and the memory keeps the last 1,024, each for 10 minutes', async () => {
  let now = Date.UTC(2030, 0, 1);
  const count = 1_025;
  const ids = Array.from({ length: count }, (_, index) => `q${index}`);
  const ended = Object.fromEntries(ids.map((id) => [id, { reason: 'expired', at: 1 }]));
  // Entries for ids nobody listed, many times over: never looked at.
  for (let index = 0; index < 20_000; index++)
    ended[`noise${index}`] = { reason: 'expired', at: 1 };
  const inbox = await pageOf(
    [
      ['snapshot', { requests: ids.map(question) }],
      ['change', { added: [], removed: ids, ended }],
    ],
    () => now,
  );
  expect(inbox.ended('q0')).toBeUndefined(); // the oldest of 1,025: past the count
  expect(inbox.ended('q1')).toEqual({ reason: 'expired', at: 1 });
  expect(inbox.ended(`q${count - 1}`)).toEqual({ reason: 'expired', at: 1 });
  expect(inbox.ended('noise0')).toBeUndefined();
  now += 10 * 60_000 - 1;
  expect(inbox.ended('q1')).toBeDefined();
  now += 1;
  expect(inbox.ended('q1')).toBeUndefined();
  expect(inbox.ended(`q${count - 1}`)).toBeUndefined();
});

it('a question listed again says nothing until it leaves again', async () => {
  const inbox = await pageOf([
    ['snapshot', { requests: [question('a')] }],
    ['change', { added: [], removed: ['a'], ended: { a: { reason: 'expired', at: 1 } } }],
    ['change', { added: [question('a')], removed: [] }],
    ['change', { added: [], removed: ['a'] }],
  ]);
  expect(inbox.ended('a')).toBeUndefined();
});
