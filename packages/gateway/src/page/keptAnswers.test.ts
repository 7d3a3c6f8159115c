/**
 * Answers given on the page after a restart, when no call waits for them, are kept in the page's
 * store (PGlite in a temporary data directory) until the host's re-issued call uses them: across
 * further restarts, once, within their bounds (how many, how long), and an answer given twice (two
 * tabs) counts once. Each life of the gateway is an in-process gateway and page on the same data
 * directory, with a real SDK host (v2, pinned to 2026-07-28, declaring no elicitation) over
 * Streamable HTTP and the dual-era fixture upstream; the Chromium test kills a gateway process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accept, type Request } from '@waitfor/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
} from '../../../mcp-bridge/src/__fixtures__/dualEraServer';
import { openHost, textOf, type Host } from '../__fixtures__/hosts';
import { manualClock } from '../__fixtures__/manualClock';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from '../index';
import { createPage, type Page, type PagePolicy } from './index';

/** One run of the gateway on the data directory: its page, and (unless only the page runs) a host. */
interface Life {
  page: Page;
  logs: string[];
  gateway?: Gateway;
  endpoint?: HttpEndpoint;
  host?: Host;
}

let work: string;
let upstream: DualEraHttpServer;
let lives: Life[];

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'waitfor-kept-'));
  upstream = await startDualEraHttpServer();
  lives = [];
});

afterEach(async () => {
  for (const life of lives.splice(0)) await end(life);
  await upstream.close();
  await rm(work, { recursive: true, force: true });
});

/** Starts the page on the data directory, and the gateway and a host in front of it unless `pageOnly`. */
async function live(policy: PagePolicy = {}, pageOnly = false): Promise<Life> {
  const logs: string[] = [];
  const log = (line: string) => void logs.push(line);
  const page = await createPage({
    ...policy,
    dataDir: join(work, 'data'),
    assetsDir: '/nonexistent',
    log,
  });
  const life: Life = { page, logs };
  lives.push(life);
  if (pageOnly) return life;
  life.gateway = await createGateway({
    upstream: { url: upstream.url },
    era: 'modern',
    log,
    clock: manualClock(),
    cannotAsk: page.cannotAsk,
  });
  life.endpoint = await serveHttp(life.gateway);
  const noAsk = () => Promise.reject(new Error('this host cannot be asked'));
  life.host = await openHost('v2-modern', { url: life.endpoint.url }, noAsk, 'none');
  return life;
}

/** Ends a life as the host going away does: the calls end, their questions stay on the page. */
async function end(life: Life): Promise<void> {
  lives = lives.filter((each) => each !== life);
  life.page.keep();
  await life.host?.close();
  await life.endpoint?.close();
  await life.gateway?.close();
  await life.page.close();
}

const openIds = (page: Page) => page.inbox.getSnapshot().map((request) => request.id);

/** The page's open questions, once it lists `count` of them. */
async function listed(page: Page, count: number): Promise<readonly Request[]> {
  await expect.poll(() => openIds(page).length, { timeout: 20_000 }).toBe(count);
  return page.inbox.getSnapshot();
}

/** Lines of the log that say an answer was kept (or dropped), once there are `count`. */
async function said(life: Life, pattern: RegExp, count: number): Promise<void> {
  await expect
    .poll(() => life.logs.filter((line) => pattern.test(line)).length, { timeout: 20_000 })
    .toBe(count);
}

const kept = /kept for the host's re-issued call/;
/** What the fixture's `ask_form` returns for a form answered with `name`. */
const form = (name: string) => `accept:${JSON.stringify({ name })}`;

/**
 * Asks `ask_form` once per argument set, one after the other (the page lists them in that order),
 * and ends the life with the questions open on the page.
 */
async function askThenRestart(args: Array<Record<string, unknown>>): Promise<void> {
  const first = await live();
  const calls: Array<Promise<unknown>> = [];
  for (const each of args) {
    calls.push((first.host as Host).callTool('ask_form', each).catch(() => 'ended'));
    await listed(first.page, calls.length);
  }
  await end(first);
  expect(await Promise.all(calls)).toEqual(args.map(() => 'ended'));
}

describe('an answer given on the page while no call waits for it', () => {
  test('survives a second restart; the re-issued call gets it at once, once', async () => {
    await askThenRestart([{}]);

    // Restarted: nobody asks yet, the page lists the question, the person answers it.
    const second = await live({}, true);
    const [question] = await listed(second.page, 1);
    expect(await second.page.inbox.submit(accept(question as Request, { name: 'Ada' }))).toBe(true);
    await said(second, kept, 1);
    expect(openIds(second.page)).toEqual([]);
    await end(second);

    // Restarted again before the host's retry: the answer is still there for it.
    const third = await live();
    const host = third.host as Host;
    expect(textOf(await host.callTool('ask_form', {}))).toBe(form('Ada'));
    expect(third.logs.join('\n')).toMatch(/answered from the page before the call was re-issued/);
    // Used once: the same call again asks the person again.
    const again = host.callTool('ask_form', {});
    const [asked] = await listed(third.page, 1);
    expect(asked?.id).toBe(question?.id);
    expect(await third.page.inbox.submit(accept(asked as Request, { name: 'Grace' }))).toBe(true);
    expect(textOf(await again)).toBe(form('Grace'));
  }, 120_000);

  test('past maxKeptAnswers the oldest is dropped, logged, and its call asks again', async () => {
    await askThenRestart([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const second = await live({ maxKeptAnswers: 2 });
    const questions = await listed(second.page, 3);
    // Answered one after the other (each kept before the next): the first is the oldest.
    for (const [index, question] of questions.entries()) {
      expect(await second.page.inbox.submit(accept(question, { name: `P${index}` }))).toBe(true);
      await said(second, kept, index + 1);
    }
    await said(second, /dropped unused: more than 2 answers wait/, 1);
    const host = second.host as Host;
    expect(textOf(await host.callTool('ask_form', { n: 3 }))).toBe(form('P2'));
    expect(textOf(await host.callTool('ask_form', { n: 2 }))).toBe(form('P1'));
    const dropped = host.callTool('ask_form', { n: 1 });
    const [asked] = await listed(second.page, 1);
    expect(asked?.id).toBe(questions[0]?.id);
    second.page.inbox.answer(accept(asked as Request, { name: 'Again' }));
    expect(textOf(await dropped)).toBe(form('Again'));
  }, 120_000);

  test('past keptAnswerMs it is dropped, logged, and the re-issued call asks again', async () => {
    await askThenRestart([{}]);
    // Kept for no time at all: it has expired by the time any call could use it.
    const second = await live({ keptAnswerMs: 0 });
    const [question] = await listed(second.page, 1);
    expect(await second.page.inbox.submit(accept(question as Request, { name: 'Ada' }))).toBe(true);
    await said(second, /waited 0 min for its call and is dropped unused/, 1);
    const call = (second.host as Host).callTool('ask_form', {});
    const [asked] = await listed(second.page, 1);
    expect(asked?.id).toBe(question?.id);
    second.page.inbox.answer(accept(asked as Request, { name: 'Later' }));
    expect(textOf(await call)).toBe(form('Later'));
  }, 120_000);

  test('answered in two tabs at once: one answer wins, is kept once and used once', async () => {
    await askThenRestart([{}]);
    const second = await live();
    const [question] = await listed(second.page, 1);
    // Two tabs post their answers to the page's endpoint as the browser does.
    const post = (name: string) =>
      fetch(`${second.page.url}api/inbox/requests/${question?.id}/answer`, {
        method: 'POST',
        headers: { origin: new URL(second.page.url).origin, 'content-type': 'application/json' },
        body: JSON.stringify(accept(question as Request, { name })),
      }).then((response) => ({ name, status: response.status }));
    const tabs = await Promise.all([post('Ada'), post('Grace')]);
    const won = tabs.filter((tab) => tab.status < 300);
    expect(won).toHaveLength(1);
    expect(tabs.find((tab) => tab.status >= 300)?.status).toBe(409);
    await said(second, kept, 1);
    const host = second.host as Host;
    expect(textOf(await host.callTool('ask_form', {}))).toBe(form(won[0]?.name as string));
    const again = host.callTool('ask_form', {});
    const [asked] = await listed(second.page, 1);
    second.page.inbox.answer(accept(asked as Request, { name: 'Third' }));
    expect(textOf(await again)).toBe(form('Third'));
    expect(second.logs.filter((line) => kept.test(line))).toHaveLength(1);
  }, 120_000);

  test('bounds that bound nothing are refused before anything opens', async () => {
    for (const policy of [{ maxKeptAnswers: -1 }, { maxKeptAnswers: 1.5 }, { keptAnswerMs: NaN }])
      await expect(createPage({ ...policy, dataDir: join(work, 'refused') })).rejects.toThrow(
        TypeError,
      );
    await expect(rm(join(work, 'refused'))).rejects.toThrow(/ENOENT/);
  });
});
