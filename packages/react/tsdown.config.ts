import { defineConfig } from 'tsdown';

// unbundle keeps one output file per source file: bundling would drop the 'use client' directive
// that the hook and component files carry for React Server Components frameworks.
export default defineConfig({
  entry: ['src/index.ts'],
  unbundle: true,
  format: 'esm',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  platform: 'neutral',
  // The private @waitfor/runtime is bundled in, never imported from dist: users do not install it.
  noExternal: ['@waitfor/runtime'],
  dts: true,
  sourcemap: true,
});
