import { defineConfig } from 'tsdown';

export default defineConfig({
  // The main entry stays browser-safe; stdio (Node-only) lives on the './node' subpath.
  entry: ['src/index.ts', 'src/node.ts'],
  format: 'esm',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  platform: 'neutral',
  // The private @waitfor/runtime is bundled in, never imported from dist: users do not install it.
  noExternal: ['@waitfor/runtime'],
  dts: true,
  sourcemap: true,
});
