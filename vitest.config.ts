import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import the packages by name and run against their sources, so a change is tested without a
// build: every package.json names each entry's source under the '@waitfor/source' export condition,
// which the test resolver (and tsx, for child processes, with --conditions) puts first. A package
// added later needs no line here. The private @waitfor/runtime exports its source only.
const sourceCondition = '@waitfor/source';

export default defineConfig({
  // Vitest's own default conditions (vite's server ones without 'module') after the source one, in
  // jsdom projects too: a dependency resolves as it did with the aliases.
  resolve: {
    conditions: [sourceCondition, ...defaultServerConditions.filter((c) => c !== 'module')],
  },
  // Without vite's 'module' condition on the server side: dependencies there are loaded by Node
  // itself, and 'module' points some (@opentelemetry/api, which ai imports) at ESM Node cannot load.
  ssr: {
    resolve: {
      conditions: [sourceCondition, ...defaultServerConditions.filter((c) => c !== 'module')],
    },
  },
  test: {
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
    // A poll that waits for an event looks every 10 ms (vitest's default is 50): hundreds of tests
    // wait on a state through expect.poll, and each look is cheap. The example's browser polls
    // keep 50 ms, each of theirs asks the page.
    expect: { poll: { interval: 10 } },
    // Two test files at a time (vitest's default on 2 cores is one): most files wait on the
    // servers, databases and browsers they start. The whole suite took 2080 s in one worker and
    // 1054 s in two, all passing, on a machine loaded 5–7 by other work besides.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'core', include: ['packages/core/src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'runtime',
          include: ['packages/runtime/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'mcp-bridge',
          include: [
            'packages/mcp-bridge/src/**/*.test.ts',
            'packages/mcp-bridge/conformance/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'legacy-spec',
          include: ['packages/legacy-spec/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'otel',
          include: ['packages/otel/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'http',
          include: ['packages/http/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Real HTTP servers, and PGlite's WebAssembly for the store inbox, on a busy machine.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'store',
          include: ['packages/store/src/**/*.test.ts'],
          environment: 'node',
          // A real PostgreSQL server started per test file, and PGlite's WebAssembly on a busy machine.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'react-19',
          include: ['packages/react/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The browser tests start and close a real Chromium, on a machine that may be loaded.
          hookTimeout: 60_000,
        },
      },
      {
        // The same React tests once more against React 18 (installed under the aliases react-18 and
        // react-dom-18). Testing Library is inlined so the alias reaches its imports too.
        extends: true,
        resolve: {
          alias: [
            { find: /^react$/, replacement: 'react-18' },
            { find: /^react\/(.*)$/, replacement: 'react-18/$1' },
            { find: /^react-dom$/, replacement: 'react-dom-18' },
            { find: /^react-dom\/(.*)$/, replacement: 'react-dom-18/$1' },
          ],
        },
        test: {
          name: 'react-18',
          include: ['packages/react/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          hookTimeout: 60_000,
          // Before every test file: sends Node's own require('react'…) to the 18 copies as well.
          setupFiles: [here('./packages/react/src/__tests__/sameReact.ts')],
          server: { deps: { inline: [/@testing-library\//] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'example',
          include: ['apps/example/{src,test}/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A real browser on a busy 2-core machine: polls get time to see the page change.
          expect: { poll: { timeout: 10_000, interval: 50 } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'benchmarks',
          include: ['benchmarks/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'tooling',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'ai-sdk',
          include: ['packages/ai-sdk/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'langgraph',
          include: ['packages/langgraph/src/**/*.test.ts'],
          environment: 'node',
          // A real PostgreSQL server for the checkpointer, and a resume in another process.
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'gateway',
          include: [
            'packages/gateway/src/**/*.test.ts',
            'packages/gateway/conformance/**/*.test.ts',
          ],
          environment: 'node',
          // Its stdio and page tests start the gateway's command through tsx (8–10 s beside
          // another test file): room for a loaded machine, as the other projects that spawn have.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
