/**
 * A URLElicitationRequiredError (-32042) listing many elicitations, against the REAL v2 completion
 * server over stdio. The client runs in a CHILD process (manyElicitationsChild.ts), so a crash or a
 * blocked event loop fails the test rather than the runner; the child reports every process warning.
 *
 * What must hold: one -32042 round puts one abort listener on a shared signal, not one per question
 * (Node warns past 10); the whole path is linear, so a listing the host allowed to be huge still
 * completes within the test's deadline (no timing assertion: a quadratic path runs for minutes and
 * the deadline catches it); a listing over the limit is refused before anyone is asked.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { accept, type Request } from '@waitfor/core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fixtureServer } from './__fixtures__/openConnection';
import { failureOf, legacySpecConnections } from './__fixtures__/legacySpecConnections';
import { LegacySpecError } from './legacySpecError';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const tsx = here('../../../node_modules/.bin/tsx');

interface ChildReport {
  text?: string;
  code?: string;
  message?: string;
  asked: number;
  warnings: string[];
  states: Record<string, number>;
}

/** Run the child for `count` listed elicitations; resolves with its report. */
function runChild(options: { count: number; maxElicitations?: number }): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      tsx,
      [
        '--tsconfig',
        here('./__fixtures__/tsconfig.child.json'),
        here('./__fixtures__/manyElicitationsChild.ts'),
        JSON.stringify(options),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // A test that ran out of time must not leave its child (and the child's server) running.
    onTestFinished(() => {
      child.kill();
    });
    let output = '';
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(output) as ChildReport);
      } catch (error) {
        reject(new Error(`child exited ${code}: ${output} ${errors}`, { cause: error }));
      }
    });
  });
}

const connections = legacySpecConnections();

describe('a -32042 listing many URL elicitations', () => {
  it('1,000 listed (limit raised): every one asked and completed, the retry succeeds, no process warning', async () => {
    const report = await runChild({ count: 1000, maxElicitations: 1000 });
    expect(report).toMatchObject({ text: 'done:2', asked: 1000 });
    expect(report.warnings).toEqual([]);
    expect(Object.keys(report.states)).toEqual(['completed']);
  });

  it('20,000 listed (limit raised): the whole path is linear, so it completes within the deadline', async () => {
    const report = await runChild({ count: 20_000, maxElicitations: 20_000 });
    expect(report).toMatchObject({ text: 'done:2', asked: 20_000 });
    expect(report.warnings).toEqual([]);
    expect(Object.keys(report.states)).toEqual(['completed']);
  }, 120_000);

  it('more than the default limit of 100: refused with too_many_elicitations before anyone is asked', async () => {
    const asked: Request[] = [];
    const { legacy, connection } = await connections.start(
      'v2',
      fixtureServer('completionServerV2Stdio.ts'),
      async (request) => {
        asked.push(request);
        return accept(request);
      },
    );
    const elicitationIds = Array.from({ length: 101 }, (_, index) => `o-${index}`);
    const failure = await failureOf(
      connection.callTool('requires-url', { elicitationIds, url: 'https://auth.example.com/o' }),
    );
    expect(LegacySpecError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'too_many_elicitations' });
    expect(asked).toEqual([]);
    expect(legacy.getSnapshot()).toEqual([]);
  });

  it('the host may lower the limit: 3 listed with maxElicitations 2 is refused the same way', async () => {
    const asked: Request[] = [];
    const { connection } = await connections.start(
      'v2',
      fixtureServer('completionServerV2Stdio.ts'),
      async (request) => {
        asked.push(request);
        return accept(request);
      },
      { maxElicitations: 2 },
    );
    const failure = await failureOf(
      connection.callTool('requires-url', {
        elicitationIds: ['p-1', 'p-2', 'p-3'],
        url: 'https://auth.example.com/p',
      }),
    );
    expect(failure).toMatchObject({ code: 'too_many_elicitations' });
    expect(asked).toEqual([]);
  });
});
