// The ai-sdk tests again on the AI SDK's current major: `ai` 7 and `@ai-sdk/mcp` 2 (pnpm aliases
// `ai-v7` and `ai-sdk-mcp-v2`, devDependencies), which need Node 22. `src/ai7.test.ts` runs this
// config under the Node 22 that `npx -y -p node@22` provides; run by hand:
//   npx -y -p node@22 node ../../node_modules/vitest/vitest.mjs run -c vitest.ai7.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  resolve: {
    alias: [
      { find: /^ai$/, replacement: 'ai-v7' },
      { find: /^ai\/test$/, replacement: 'ai-v7/test' },
      { find: /^@ai-sdk\/mcp$/, replacement: 'ai-sdk-mcp-v2' },
    ],
  },
  ssr: { resolve: { conditions: ['@waitfor/source', 'node', 'development|production'] } },
  test: {
    include: ['src/**/*.test.ts', 'src/__tests__/*.ai7.ts'],
    // The runner itself, and the comparison with @ai-sdk/mcp 1.x (2.x has its own).
    exclude: ['src/ai7.test.ts', 'src/aiSdkMcp.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
