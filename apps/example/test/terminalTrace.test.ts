import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callAndQuestion } from './printedSpans.js';

// The terminal mode with the console trace, as a person starts it: `--trace` in a child process
// whose input the test types and whose output it reads (its spans: ./printedSpans.ts).

const appDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

describe('the terminal mode with --trace', () => {
  it('prints a span for the call and one for its question, with no answer in them', async () => {
    child = spawn(tsx, ['--tsconfig', tsconfig, 'src/main.ts', '--terminal', '--trace'], {
      cwd: appDir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    let consumed = 0;
    const answer = async (prompt: RegExp, line: string) => {
      await expect
        .poll(() => text.slice(consumed), { timeout: 30_000, interval: 50 })
        .toMatch(prompt);
      consumed = text.length;
      child?.stdin.write(`${line}\r`);
    };

    await answer(/Run which tool\?/, '');
    const number = /(\d+)\) [^\n]*\(scale_service\)/.exec(text)?.[1] ?? '';
    expect(number).not.toBe('');
    // Forty-seven is the answer: it must show in the result, never in a span.
    await answer(/Run which tool\?/, number);
    await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\?/, '');
    await answer(/Replicas \*[^\n]*\[3\]/, '47');
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\?/, 's');
    await answer(/Run which tool\?/, 'q');
    expect(await exited).toBe(0);
    expect(text).toContain('Scaled search-api to 47 replicas.');

    const { spans, call, question } = callAndQuestion(text, 'scale_service');
    expect(call).toContain("'waitfor.server.name': 'Deploy Console'");
    expect(question).toContain("'waitfor.server.name': 'Deploy Console'");
    // Neither the answer nor the question's text is in any span.
    for (const span of spans) {
      expect(span).not.toMatch(/\b47\b/);
      expect(span).not.toContain('How many replicas');
    }
  });
});
