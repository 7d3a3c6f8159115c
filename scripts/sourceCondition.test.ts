import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entriesOf, sourceCondition } from '../tsdown.base';

const root = fileURLToPath(new URL('..', import.meta.url));

type Target = string | Record<string, unknown>;
type Manifest = { name: string; private?: boolean; exports?: Record<string, Target> };

const published = readdirSync(join(root, 'packages'))
  .map((folder) => join(root, 'packages', folder))
  .filter((folder) => existsSync(join(folder, 'package.json')))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter(({ manifest }) => manifest.private !== true);

// Tests, tsx child processes and the shared build all read an entry's source from package.json:
// a package added later works everywhere once its exports name their sources.
describe.each(published)('$manifest.name', ({ folder, manifest }) => {
  const code = Object.entries(manifest.exports ?? {}).filter(
    ([subpath]) => subpath !== './package.json',
  );

  it(`names the source of every entry under '${sourceCondition}', first`, () => {
    expect(code.length).toBeGreaterThan(0);
    for (const [subpath, target] of code) {
      expect(typeof target, subpath).toBe('object');
      const conditions = Object.keys(target as object);
      // Conditions match in order: after `default` it would never be chosen.
      expect(conditions[0], subpath).toBe(sourceCondition);
      const source = (target as Record<string, unknown>)[sourceCondition] as string;
      expect(existsSync(join(folder, source)), `${subpath} → ${source}`).toBe(true);
    }
  });

  it('is built by the shared config, from exactly those sources', () => {
    const config = readFileSync(join(folder, 'tsdown.config.ts'), 'utf8');
    expect(config).toContain("from '../../tsdown.base.ts'");
    expect(config).toMatch(/export default packageBuild\(/);
    const sources = code.map(([, target]) =>
      ((target as Record<string, string>)[sourceCondition] ?? '').replace(/^\.\//, ''),
    );
    expect(entriesOf(manifest)).toEqual(sources);
  });
});
