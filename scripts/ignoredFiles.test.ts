/**
 * What git ignores is never format-checked: run the example (README command 1), then the checks
 * (command 2), and nothing the example wrote may fail them. Prettier reads only the root's ignore
 * files, so every pattern of a nested `.gitignore` must be in the root `.prettierignore` too.
 *
 * Cheap on purpose: a scratch folder gets the repository's prettier config and every `.gitignore`
 * at its own place, then the files the example writes — its own CallBook writes `calls.json` there,
 * and each nested ignored pattern gets a badly formatted JSON file — and `prettier --check .` runs
 * on that folder as `pnpm format:check` runs on the repository. (ESLint lints only JavaScript and
 * TypeScript, which the example never writes.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CallBook } from '../apps/example/src/host/hostedCalls';

const root = fileURLToPath(new URL('..', import.meta.url));
const prettier = join(root, 'node_modules/.bin/prettier');
const scratch = mkdtempSync(join(tmpdir(), 'waitfor-ignored-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every `.gitignore` git tracks below the root (the root's own prettier reads already). */
const nestedIgnores = execFileSync('git', ['ls-files', '--', '**/.gitignore'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((path) => path !== '' && path !== '.gitignore');

/** The patterns of an ignore file (no comments, no negations, no blank lines). */
const patternsOf = (file: string) =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!'));

// A path an ignore pattern matches (`/a/` → `a`, `*.log` → `x.log`, `**/tmp` → `tmp`).
const pathOf = (pattern: string) =>
  pattern.replace(/^\//, '').replaceAll('**/', '').replaceAll('*', 'x');

/** A file under `path` in the scratch folder, made with its folders. */
function write(path: string, text: string) {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

const check = () =>
  spawnSync(prettier, ['--check', '.'], { cwd: scratch, encoding: 'utf8', timeout: 60_000 });

describe('files the example writes (git-ignored)', () => {
  for (const file of ['.prettierrc.json', '.prettierignore', '.gitignore', ...nestedIgnores]) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    copyFileSync(join(root, file), join(scratch, file));
  }
  // Prettier would rewrite this (spaces inside the braces), so a check that reads it fails.
  const unformatted = '{"id":"c-1","status":"done"}';

  it('the check itself still fails on a badly formatted file nobody ignores', () => {
    write('apps/example/src/fixture.json', unformatted);
    expect(check().status).not.toBe(0);
    rmSync(join(scratch, 'apps/example/src/fixture.json'));
  });

  it("the example's calls.json, and a file under every nested .gitignore pattern, pass the format check", async () => {
    expect(nestedIgnores).toContain('apps/example/.gitignore');
    // The example's default data folder (apps/example/.waitfor-data), written by its own code.
    const dataDir = join(scratch, 'apps/example/.waitfor-data');
    mkdirSync(dataDir, { recursive: true });
    const book = await CallBook.open(dataDir);
    book.put({ id: 'c-1', server: 'Travel', tool: 'sync', title: 'Sync trips', status: 'done' });
    await book.flush();
    expect(readFileSync(join(dataDir, 'calls.json'), 'utf8')).not.toContain(': ');
    for (const file of nestedIgnores)
      for (const pattern of patternsOf(file))
        write(join(dirname(file), pathOf(pattern), 'written.json'), unformatted);
    const run = check();
    expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({
      status: 0,
      output: expect.stringContaining('All matched files use Prettier code style!'),
    });
  });
});
