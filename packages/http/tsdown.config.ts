import { defineConfig } from 'tsdown';

export default defineConfig({
  // The handler (server), the remote inbox (browser) and the Node adapter are separate entries, so a
  // browser bundle never carries server code.
  entry: ['src/index.ts', 'src/client.ts', 'src/node.ts'],
  format: 'esm',
  // .mjs / .d.mts, as the package.json exports name them.
  fixedExtension: true,
  platform: 'neutral',
  // The private @waitfor/runtime is bundled in, never imported from dist: users do not install it.
  noExternal: ['@waitfor/runtime'],
  dts: true,
  sourcemap: true,
});
