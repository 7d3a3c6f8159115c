import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startExample } from '../src/host/startExample.js';
import type { RunningExample } from '../src/host/startExample.js';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
// Child processes resolve @waitfor/* to the packages' sources, as the tests do.
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));

describe('startExample', () => {
  let dist: string;
  let example: RunningExample;
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'waitfor-dist-'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>page</title>');
    await writeFile(join(dist, 'app.js'), 'export {};');
    example = await startExample({ port: 0, distDir: dist });
  });
  afterAll(async () => {
    await example.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves the page, its assets, and the servers it should connect to', async () => {
    expect(example.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(example.url)).text()).toContain('<title>page</title>');
    const script = await fetch(new URL('app.js', example.url));
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const config = (await (await fetch(new URL('config.json', example.url))).json()) as {
      servers: Array<{ name: string; era: string; url: string }>;
    };
    expect(config.servers.map((server) => [server.name, server.era])).toEqual([
      ['Travel Desk', 'legacy'],
      ['Deploy Console', 'modern'],
    ]);
    for (const server of config.servers)
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('never serves a file outside the build', async () => {
    const response = await fetch(new URL('/%2e%2e/%2e%2e/package.json', example.url));
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain('"name"');
    expect((await fetch(new URL('missing.js', example.url))).status).toBe(404);
  });

  it('closes every server it started', async () => {
    const second = await startExample({ port: 0, distDir: dist });
    const urls = [second.url, ...second.servers.map((server) => server.url)];
    await second.close();
    for (const url of urls) await expect(fetch(url)).rejects.toThrow();
  });
});

describe('the start command', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    // A failed assertion must not leave the example running: end its whole process group.
    for (const child of children.splice(0)) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  });

  it('prints the URL and stops everything on SIGINT and SIGTERM', async () => {
    // The start command's hosted mode keeps its questions in a data folder: a fresh one here, so
    // the test never shares the example's own folder with a running example.
    const dataDir = await mkdtemp(join(tmpdir(), 'waitfor-start-'));
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const child = spawn(tsx, ['--tsconfig', tsconfig, 'src/main.ts', '--port', '0'], {
        cwd: appDir,
        env: { ...process.env, WAITFOR_DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      children.push(child);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      await expect.poll(() => output, { timeout: 30_000 }).toContain('Press Ctrl-C to stop.');
      expect(output).toContain(`questions are kept in ${dataDir}`);
      const urls = [...output.matchAll(/http:\/\/127\.0\.0\.1:\d+\/?(?:mcp)?/g)].map(
        (match) => match[0],
      );
      expect(urls.length).toBe(3);
      for (const url of urls) {
        // The page answers 200 once built (503 with build instructions before); the MCP endpoints answer preflights.
        const response = await fetch(url, { method: url.endsWith('mcp') ? 'OPTIONS' : 'GET' });
        expect(url.endsWith('mcp') ? [204] : [200, 503]).toContain(response.status);
      }
      child.kill(signal);
      expect(await exited).toBe(0);
      for (const url of urls) await expect(fetch(url)).rejects.toThrow();
    }
    await rm(dataDir, { recursive: true, force: true });
  });
});
