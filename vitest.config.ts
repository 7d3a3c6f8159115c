import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests import the packages by name and run against their sources, so a change is tested without a
// build. Child processes (stdio servers, resume in another process) run sources through tsx.
const sourceAliases = [
  { find: /^@waitfor\/core$/, replacement: here('./packages/core/src/index.ts') },
  { find: /^@waitfor\/core\/form$/, replacement: here('./packages/core/src/form.ts') },
  { find: /^@waitfor\/core\/tools$/, replacement: here('./packages/core/src/tools.ts') },
  { find: /^@waitfor\/core\/zod$/, replacement: here('./packages/core/src/zod.ts') },
  { find: /^@waitfor\/mcp-bridge$/, replacement: here('./packages/mcp-bridge/src/index.ts') },
  { find: /^@waitfor\/mcp-bridge\/node$/, replacement: here('./packages/mcp-bridge/src/node.ts') },
  { find: /^@waitfor\/legacy-spec$/, replacement: here('./packages/legacy-spec/src/index.ts') },
  { find: /^@waitfor\/http$/, replacement: here('./packages/http/src/index.ts') },
  { find: /^@waitfor\/http\/client$/, replacement: here('./packages/http/src/client.ts') },
  { find: /^@waitfor\/http\/node$/, replacement: here('./packages/http/src/node.ts') },
  { find: /^@waitfor\/otel$/, replacement: here('./packages/otel/src/index.ts') },
  { find: /^@waitfor\/react$/, replacement: here('./packages/react/src/index.ts') },
  // Private, bundled into every package (never published); its own tests are the 'runtime' project.
  { find: /^@waitfor\/runtime$/, replacement: here('./packages/runtime/src/index.ts') },
  { find: /^@waitfor\/store$/, replacement: here('./packages/store/src/index.ts') },
  { find: /^@waitfor\/ai-sdk$/, replacement: here('./packages/ai-sdk/src/index.ts') },
];

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
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
          include: ['packages/mcp-bridge/src/**/*.test.ts'],
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
        },
      },
      {
        // The same React tests once more against React 18 (installed under the aliases react-18 and
        // react-dom-18). Testing Library is inlined so the alias reaches its imports too.
        extends: true,
        resolve: {
          alias: [
            ...sourceAliases,
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
          expect: { poll: { timeout: 10_000 } },
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
    ],
  },
});
