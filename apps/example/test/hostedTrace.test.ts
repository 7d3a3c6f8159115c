import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callAndQuestion, spansIn } from './printedSpans.js';

// The hosted mode as a person starts it (`src/main.ts`, the example's start script), in a process
// of its own: a call runs through the host's /api, its question is answered through the real
// @waitfor/http endpoint, and the host's output is read (its spans: ./printedSpans.ts).

const appDir = fileURLToPath(new URL('..', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));

// The answer's one free-text value: it must reach the server (the result names it), never a span.
const email = 'quokka-4711@example.com';

let host: ChildProcessWithoutNullStreams | undefined;
let work: string | undefined;
afterEach(async () => {
  host?.kill('SIGKILL');
  host = undefined;
  if (work !== undefined) await rm(work, { recursive: true, force: true });
  work = undefined;
});

/**
 * Starts `src/main.ts` in the hosted mode with `args`, runs Travel Desk's `book_trip`, answers its
 * form over /api/inbox, waits for the result, stops the host with SIGTERM and returns everything
 * the host printed.
 */
async function bookTripThroughHost(args: string[]): Promise<string> {
  work = await mkdtemp(join(tmpdir(), 'waitfor-hosted-trace-'));
  const env: NodeJS.ProcessEnv = { ...process.env, TSX_TSCONFIG_PATH: tsconfig, NO_COLOR: '1' };
  delete env.WAITFOR_TRACE;
  // Node itself with tsx's loader (not the tsx CLI, which runs a second process): SIGTERM reaches
  // the host, which closes (and flushes the trace) before it exits.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts', '--port', '0', '--data-dir', join(work, 'data'), ...args],
    { cwd: appDir, env },
  );
  host = child;
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

  await expect.poll(() => text, { timeout: 60_000 }).toMatch(/waitfor example is running: /);
  const url = /waitfor example is running: (\S+)/.exec(text)![1]!;
  const origin = new URL(url).origin;
  const api = (path: string, body?: unknown) =>
    fetch(
      new URL(path, url),
      body === undefined
        ? {}
        : {
            method: 'POST',
            body: JSON.stringify(body),
            headers: { origin, 'content-type': 'application/json' },
          },
    );

  const started = await api('/api/calls', { server: 'Travel Desk', tool: 'book_trip' });
  // The body says why when the call was not started (and the host's output, what it printed).
  const body = (await started.json()) as { call: { id: string } };
  expect({ status: started.status, body, text }).toMatchObject({ status: 201 });
  const { call } = body;
  const open = async () =>
    ((await (await api('/api/inbox/requests')).json()) as { requests: { id: string }[] }).requests;
  await expect.poll(async () => (await open()).length, { timeout: 30_000 }).toBe(1);
  const [question] = await open();
  const answered = await api(`/api/inbox/requests/${encodeURIComponent(question!.id)}/answer`, {
    id: question!.id,
    ok: true,
    data: { destination: 'kyoto', departure: '2027-03-14', email },
  });
  expect(answered.status).toBe(200);
  const result = async () =>
    (
      (await (await api('/api/calls')).json()) as {
        calls: { id: string; status: string; text?: string }[];
      }
    ).calls.find((entry) => entry.id === call.id);
  await expect.poll(async () => (await result())?.status, { timeout: 30_000 }).toBe('done');
  expect((await result())?.text).toContain(`Itinerary sent to ${email}.`);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return text;
}

describe('the hosted mode with --trace', () => {
  it("prints the call's span and its question's span, with no answer in them", async () => {
    // As `pnpm example -- --trace` passes it on: after a `--`.
    const text = await bookTripThroughHost(['--', '--trace']);

    const { call, question } = callAndQuestion(text, 'book_trip');
    expect(call).toContain("'waitfor.server.name': 'Travel Desk'");
    expect(call).toContain("'waitfor.era': 'legacy'");
    expect(call).toContain("'gen_ai.tool.name': 'book_trip'");
    expect(question).toContain("'waitfor.server.name': 'Travel Desk'");
    expect(question).toContain("'waitfor.question.mode': 'form'");
    expect(question).toContain("'waitfor.question.outcome': 'accepted'");
    // Neither the answer nor the question's text is anywhere in the host's output.
    expect(text).not.toContain('quokka-4711');
    expect(text).not.toContain('Where and when would you like to travel');
  });

  it('prints no span without it', async () => {
    const text = await bookTripThroughHost([]);
    expect(spansIn(text)).toEqual([]);
    expect(text).not.toContain('tools/call');
    expect(text).not.toContain('quokka-4711');
  });
});
