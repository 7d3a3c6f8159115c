/**
 * One gateway per data directory (dataLock.ts): a second page on the same directory keeps its
 * questions in the next slot, a released or killed holder frees its directory, and the pid-file lock
 * of platforms without an OS-dropped socket takes over only a lock whose process is gone.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { accept, type Request } from '@waitfor/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { lockDir, MAX_SLOTS, pidLock, slotsOf, type DataLock } from './dataLock';
import { createPage, type Page } from './index';

let work: string;
const pages: Page[] = [];
const locks: DataLock[] = [];
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'waitfor-lock-'));
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await Promise.all(locks.splice(0).map((lock) => lock.release()));
  await rm(work, { recursive: true, force: true });
});

async function openPage(dataDir: string, logs: string[] = []): Promise<Page> {
  const page = await createPage({
    dataDir,
    assetsDir: '/nonexistent',
    log: (line) => void logs.push(line),
  });
  pages.push(page);
  return page;
}

const question = (id: string): Request => ({
  id,
  kind: 'approval',
  prompt: `Question ${id}?`,
  data: { origin: { server: 'test' } },
});

test('a second page on the same directory keeps its questions in the next slot, apart', async () => {
  const dataDir = join(work, 'data');
  const first = await openPage(dataDir);
  const logs: string[] = [];
  const second = await openPage(dataDir, logs);
  expect(first.dataDir).toBe(dataDir);
  expect(second.dataDir).toBe(join(dataDir, '2'));
  expect(logs.some((line) => line.includes(`this one in ${join(dataDir, '2')}`))).toBe(true);
  expect(first.url).not.toBe(second.url);

  // Each store works, and neither sees the other's questions.
  const asked = first.inbox.waitFor(question('a'));
  await expect.poll(() => first.inbox.getSnapshot().map((request) => request.id)).toEqual(['a']);
  await second.inbox.refresh();
  expect(second.inbox.getSnapshot()).toEqual([]);
  expect(await first.inbox.submit(accept('a'))).toBe(true);
  await expect(asked).resolves.toMatchObject({ id: 'a', ok: true });
});

test('a closed page frees its directory for the next gateway', async () => {
  const dataDir = join(work, 'data');
  const first = await openPage(dataDir);
  const token = JSON.parse(await readFile(join(dataDir, 'page.json'), 'utf8')) as unknown;
  await first.close();
  pages.splice(pages.indexOf(first), 1);
  const again = await openPage(dataDir);
  expect(again.dataDir).toBe(dataDir);
  // The same slot, so the same link as before.
  expect(again.url).toContain((token as { token: string }).token);
});

test('every slot held: the questions are kept in memory, and the page still asks', async () => {
  const dataDir = join(work, 'data');
  for (const dir of slotsOf(dataDir)) {
    await mkdir(dir, { recursive: true });
    const lock = await lockDir(dir);
    expect(lock).toBeDefined();
    locks.push(lock as DataLock);
  }
  expect(locks).toHaveLength(MAX_SLOTS);
  const logs: string[] = [];
  const page = await openPage(dataDir, logs);
  expect(page.dataDir).toBeUndefined();
  expect(logs.some((line) => line.includes('kept in memory only'))).toBe(true);
});

const childScript = fileURLToPath(new URL('../__fixtures__/holdLock.ts', import.meta.url));

test('a holder killed with SIGKILL leaves its directory free at once', async () => {
  const dir = join(work, 'held');
  const child = spawn(
    process.execPath,
    ['--conditions=@waitfor/source', '--import', 'tsx', childScript, dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const lines = createInterface({ input: child.stdout });
    await new Promise<void>((resolve) => lines.on('line', (line) => line === 'held' && resolve()));
    expect(await lockDir(dir)).toBeUndefined();
  } finally {
    child.kill('SIGKILL');
  }
  await exited;
  const lock = await lockDir(dir);
  expect(lock?.dir).toBe(dir);
  locks.push(lock as DataLock);
});

test('the pid-file lock refuses a running holder and takes over one that is gone', async () => {
  const dir = join(work, 'pid');
  await mkdir(dir);
  const held = await pidLock(dir);
  expect(held).toBeDefined();
  expect(await pidLock(dir)).toBeUndefined(); // this process runs: refused

  await held?.release();
  const gone = spawn(process.execPath, ['-e', '']);
  const pid = gone.pid as number;
  await new Promise((resolve) => gone.once('exit', resolve));
  await writeFile(join(dir, 'lock'), String(pid));
  const taken = await pidLock(dir);
  expect(taken).toBeDefined();
  expect(await readFile(join(dir, 'lock'), 'utf8')).toBe(String(process.pid));
  await taken?.release();
});
