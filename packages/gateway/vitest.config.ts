// The gateway's tests on their own (`npx vitest run --config packages/gateway/vitest.config.ts`),
// resolved as the root config resolves every package: sources first, through '@waitfor/source'.
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  ssr: { resolve: { conditions: ['@waitfor/source', ...defaultServerConditions] } },
  resolve: { conditions: ['@waitfor/source'] },
  test: {
    name: 'gateway',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
