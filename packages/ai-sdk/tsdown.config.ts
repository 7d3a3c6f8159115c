import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'neutral',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  // The private @waitfor/runtime is bundled in, never imported from dist: users do not install it.
  noExternal: ['@waitfor/runtime'],
  dts: true,
  sourcemap: true,
});
