import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type UserConfig } from 'tsdown';

/** The export condition that names an entry's source: tests and tsx child processes resolve it. */
export const sourceCondition = '@waitfor/source';

type ExportTarget = string | { [condition: string]: ExportTarget };

/** The package's entries: every export's source file, read from package.json (one list, not two). */
export function entriesOf(manifest: { exports?: Record<string, ExportTarget> }): string[] {
  return Object.values(manifest.exports ?? {}).flatMap((target) =>
    typeof target === 'object' && typeof target[sourceCondition] === 'string'
      ? [target[sourceCondition].replace(/^\.\//, '')]
      : [],
  );
}

/**
 * The build of every public package, run in the package's folder: ESM only, .mjs / .d.mts (as the
 * exports name them), types and source maps. The private @waitfor/runtime is bundled in, never
 * imported from dist: users do not install it. `overrides` holds what one package does differently.
 */
export function packageBuild(overrides: UserConfig = {}): UserConfig {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));
  return defineConfig({
    entry: entriesOf(manifest),
    format: 'esm',
    platform: 'neutral',
    fixedExtension: true,
    noExternal: ['@waitfor/runtime'],
    dts: true,
    sourcemap: true,
    ...overrides,
  });
}
