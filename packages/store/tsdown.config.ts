import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts'],
  format: 'esm',
  platform: 'node',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  dts: true,
  sourcemap: true,
});
