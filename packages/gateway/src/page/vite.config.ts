import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const packageSource = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

// The page the gateway serves, built into the package's dist/page by its build (never committed).
// `--mode source` builds against the packages' sources instead of their dist (the tests use it, so
// no package build is needed first).
export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('./web/', import.meta.url)),
  base: './',
  plugins: [react()],
  resolve: {
    alias:
      mode === 'source'
        ? [
            { find: /^@waitfor\/core$/, replacement: packageSource('core/src/index.ts') },
            { find: /^@waitfor\/core\/form$/, replacement: packageSource('core/src/form.ts') },
            { find: /^@waitfor\/runtime$/, replacement: packageSource('runtime/src/index.ts') },
            { find: /^@waitfor\/react$/, replacement: packageSource('react/src/index.ts') },
            { find: /^@waitfor\/http\/client$/, replacement: packageSource('http/src/client.ts') },
          ]
        : [],
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/page/', import.meta.url)),
    emptyOutDir: true,
  },
}));
