/**
 * Oversize questions from a hostile server (src/__fixtures__/hostileServer.ts, over HTTP) are
 * refused before anyone is asked, in both eras, through `connect` and through `attachWaitFor` —
 * each run by a real client in a CHILD process
 * (src/__fixtures__/limitsChild.ts), so a crash (heap out of memory) or a blocked event loop fails
 * the test, not only a thrown error. The child prints what it saw and exits 0; the parent checks
 * the exit, the error, that nobody was asked, and on the server side that nothing more was sent.
 *
 * "Blocked loop" cases raise the host's limits so the question passes them, at a scale where a
 * quadratic check would take minutes (an all-in-default check of 200,000 choices, an unknown-key
 * scan of 200,000 answered fields): the test's deadline catches a hang, no time is measured.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { tsxBinary, type BridgePath } from './__fixtures__/clients';
import { startHostileHttpServer, type HostileHttpServer } from './__fixtures__/hostileHttp';
import type { BridgeLimits } from './index';

const child = fileURLToPath(new URL('./__fixtures__/limitsChild.ts', import.meta.url));
const childTsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

interface ChildReport {
  asked: number;
  code?: string;
  message?: string;
  text?: string;
}

let server: HostileHttpServer;
beforeAll(async () => {
  server = await startHostileHttpServer();
});
afterAll(async () => {
  await server?.close();
});
// Each test counts what the server saw of its own run only.
beforeEach(() => {
  server.log.entries.length = 0;
});

/** Run one question in a child process; resolves once it exits, whatever it printed. */
function runChild(job: {
  era: 'legacy' | 'modern';
  tool: string;
  size: number;
  limits?: Partial<BridgeLimits>;
  answer?: 'defaults' | 'every-field';
  path: BridgePath;
}): Promise<{
  exitCode: number | null;
  signal: string | null;
  report?: ChildReport;
  stderr: string;
}> {
  return new Promise((resolve, reject) => {
    // Its own process group: tsx runs the script in a grandchild, which must go too.
    const running = spawn(tsxBinary, ['--tsconfig', childTsconfig, child], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // A child still running when its test ends (a deadline caught a blocked loop) is stopped.
    onTestFinished(() => {
      if (running.exitCode === null && running.signalCode === null)
        process.kill(-running.pid!, 'SIGKILL');
    });
    let output = '';
    let stderr = '';
    running.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    running.stderr.on(
      'data',
      (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)),
    );
    running.on('error', reject);
    running.on('exit', (exitCode, signal) => {
      const line = output.trim().split('\n').pop() ?? '';
      let report: ChildReport | undefined;
      try {
        report = JSON.parse(line) as ChildReport;
      } catch {
        report = undefined;
      }
      resolve({ exitCode, signal, report, stderr });
    });
    running.stdin.end(JSON.stringify({ url: server.url, ...job }));
  });
}

const entries = (tool: string, era: 'legacy' | 'modern') =>
  server.log.entries.filter((entry) => entry.tool === tool && entry.era === era);

/** Answers that reached the server: legacy = elicitation results, modern = retries. */
const answersSent = (tool: string, era: 'legacy' | 'modern') =>
  entries(tool, era).filter((entry) =>
    era === 'legacy' ? entry.kind === 'answer' : entry.inputResponses !== undefined,
  ).length;

const oversizeForms: Array<[string, number, RegExp]> = [
  // Today's crash: counting the code points of this default allocated an array of 150 M strings.
  ['huge_default', 150_000_000, /requestedSchema/],
  ['many_choices', 25_000, /requestedSchema/],
  ['many_fields', 60_000, /requestedSchema/],
  // URL mode: a url past 8192 characters, an elicitationId past 256.
  ['long_url', 8_200, /url/],
  ['long_elicitation_id', 257, /elicitationId/],
];

const paths: BridgePath[] = ['connect', 'attachWaitFor'];
const eraPaths = (['modern', 'legacy'] as const).flatMap((era) =>
  paths.map((path) => [era, path] as const),
);

describe.each(eraPaths)('oversize forms, %s era, default limits, %s', (era, path) => {
  it.each(oversizeForms)(
    '%s (size %d) is refused before anyone is asked',
    async (tool, size, message) => {
      const run = await runChild({ era, tool, size, path });
      expect({ exitCode: run.exitCode, signal: run.signal }, run.stderr).toEqual({
        exitCode: 0,
        signal: null,
      });
      expect(run.report?.asked).toBe(0);
      if (era === 'modern') {
        expect(run.report).toMatchObject({ code: 'invalid_params' });
        expect(run.report?.message).toMatch(message);
      } else {
        // The pushed elicitation/create was answered with JSON-RPC invalid params (-32602).
        expect(run.report?.text).toBe('refused: -32602');
        expect(entries(tool, era).filter((entry) => entry.kind === 'refusal')).toHaveLength(1);
      }
      expect(answersSent(tool, era)).toBe(0);
    },
    120_000,
  );
});

describe.each(paths)('modern era, default limits, %s: the round itself', (path) => {
  it.each([
    ['huge_state', 5_000_000, /requestState is past the limit/],
    ['many_questions', 1_000, /inputRequests is past the limit/],
  ] as const)(
    '%s (size %d) is refused before anyone is asked, and no retry is sent',
    async (tool, size, message) => {
      const run = await runChild({ era: 'modern', tool, size, path });
      expect({ exitCode: run.exitCode, signal: run.signal }, run.stderr).toEqual({
        exitCode: 0,
        signal: null,
      });
      expect(run.report).toMatchObject({ asked: 0, code: 'invalid_params' });
      expect(run.report?.message).toMatch(message);
      expect(entries(tool, 'modern')).toHaveLength(1);
    },
    60_000,
  );
});

describe.each(paths)(
  'modern era, limits raised by the host, %s: linear checks, no blocked loop',
  (path) => {
    // JSON carries no Infinity: "no bound" is the largest safe integer.
    const none = Number.MAX_SAFE_INTEGER;
    const unbounded = { schemaSize: none, stringLength: none };
    it('a multi-select of 200,000 choices, all in its default, is asked and answered', async () => {
      const run = await runChild({
        era: 'modern',
        tool: 'many_choices',
        size: 200_000,
        limits: { form: { ...unbounded, choices: none } },
        path,
      });
      expect({ exitCode: run.exitCode, signal: run.signal }, run.stderr).toEqual({
        exitCode: 0,
        signal: null,
      });
      expect(run.report).toEqual({ asked: 1, text: 'accepted 1 keys' });
    }, 60_000);

    it('a form of 200,000 required fields, every one answered, is asked and sent', async () => {
      const run = await runChild({
        era: 'modern',
        tool: 'many_fields',
        size: 200_000,
        limits: { form: { ...unbounded, fields: none } },
        answer: 'every-field',
        path,
      });
      expect({ exitCode: run.exitCode, signal: run.signal }, run.stderr).toEqual({
        exitCode: 0,
        signal: null,
      });
      expect(run.report).toEqual({ asked: 1, text: 'accepted 200000 keys' });
    }, 60_000);
  },
);
