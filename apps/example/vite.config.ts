import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const packageSource = (path: string) =>
  fileURLToPath(new URL(`../../packages/${path}`, import.meta.url));

// The page is built once and served by the example host (node:http); no dev server is needed.
// `--mode source` builds against the packages' sources instead of their dist (the e2e test uses it,
// like every other test of the monorepo, so no package build is needed first).
export default defineConfig(({ mode }) => ({
  plugins: [react()],
  resolve: {
    alias:
      mode === 'source'
        ? [
            { find: /^@waitfor\/core$/, replacement: packageSource('core/src/index.ts') },
            { find: /^@waitfor\/core\/form$/, replacement: packageSource('core/src/form.ts') },
            { find: /^@waitfor\/core\/tools$/, replacement: packageSource('core/src/tools.ts') },
            { find: /^@waitfor\/core\/zod$/, replacement: packageSource('core/src/zod.ts') },
            {
              find: /^@waitfor\/mcp-bridge$/,
              replacement: packageSource('mcp-bridge/src/index.ts'),
            },
            {
              find: /^@waitfor\/legacy-spec$/,
              replacement: packageSource('legacy-spec/src/index.ts'),
            },
            { find: /^@waitfor\/react$/, replacement: packageSource('react/src/index.ts') },
            { find: /^@waitfor\/http\/client$/, replacement: packageSource('http/src/client.ts') },
          ]
        : [],
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
}));
