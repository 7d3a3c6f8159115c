import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/form.ts', 'src/tools.ts', 'src/zod.ts'],
  format: 'esm',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  platform: 'neutral',
  // The private @waitfor/runtime is bundled in, never imported from dist: users do not install it.
  noExternal: ['@waitfor/runtime'],
  dts: true,
  sourcemap: true,
});
