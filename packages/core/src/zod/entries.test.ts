/**
 * Zod stays optional: only the zod entry imports it, and no core entry imports MCP or React.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** Every bare import an entry makes once its own files are bundled. */
async function bareImportsOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    metafile: true,
    // Anything not relative stays an import, so it is listed rather than bundled.
    plugins: [
      {
        name: 'bare-imports',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  // The private @waitfor/runtime is part of core's own build, not a dependency of it.
  return output.imports
    .map((imported) => imported.path)
    .filter((path) => path !== '@waitfor/runtime')
    .sort();
}

describe('entries', () => {
  it.each(['index.ts', 'form.ts', 'tools.ts'])('%s imports nothing outside core', async (entry) => {
    expect(await bareImportsOf(entry)).toEqual([]);
  });

  it('zod.ts imports zod and nothing else outside core', async () => {
    expect(new Set(await bareImportsOf('zod.ts'))).toEqual(new Set(['zod']));
  });
});
