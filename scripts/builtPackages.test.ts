import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtFiles,
  entriesOf,
  exportedNames,
  importsOf,
  loadInNode,
  packageNameOf,
  readManifest,
  sourceOf,
  startsWithUseClient,
  type Manifest,
} from './packageSurface';

// Vitest sends the @waitfor names to the sources, so every other test runs without a build. These
// tests check what is published instead: the built dist, loaded by plain Node through node_modules.
// They rely on the build that `pnpm verify` runs first.
const root = fileURLToPath(new URL('..', import.meta.url));

const publicPackageNames = [
  '@waitfor/core',
  '@waitfor/mcp-bridge',
  '@waitfor/legacy-spec',
  '@waitfor/react',
  '@waitfor/otel',
  '@waitfor/store',
  '@waitfor/http',
  '@waitfor/ai-sdk',
  '@waitfor/langgraph',
  '@waitfor/gateway',
];

type WorkspacePackage = { name: string; directory: string; manifest: Manifest };

/** Every workspace package, found through the globs of pnpm-workspace.yaml. */
function workspacePackages(): WorkspacePackage[] {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = /^packages:\n((?:[ \t]+-.*\n?)+)/m.exec(workspace)?.[1] ?? '';
  const directories = [...globs.matchAll(/-\s*['"]?([^'"\n]+?)['"]?\s*$/gm)].flatMap(
    ([, glob = '']) => {
      if (!glob.endsWith('/*')) return [join(root, glob)];
      const parent = join(root, glob.slice(0, -2));
      return readdirSync(parent).map((name) => join(parent, name));
    },
  );
  return directories
    .filter((directory) => existsSync(join(directory, 'package.json')))
    .map((directory) => {
      const manifest = readManifest(directory);
      return { name: manifest.name, directory, manifest };
    });
}

const workspace = workspacePackages();
const publicPackages = workspace.filter((entry) => !entry.manifest.private);
const privateNames = new Set(
  workspace.filter((entry) => entry.manifest.private).map((entry) => entry.name),
);

/** Fails with the fix when a built file is absent, instead of a confusing resolution error. */
function requireBuilt(pack: WorkspacePackage, file: string): string {
  const path = join(pack.directory, file);
  if (!existsSync(path))
    throw new Error(`${pack.name}: ${file} is missing; run \`pnpm build\` before these tests`);
  return path;
}

it('covers every public package', () => {
  // Without this, a package left out of the list would silently lose its checks.
  expect(publicPackages.map((entry) => entry.name).sort()).toEqual([...publicPackageNames].sort());
});

describe.each(publicPackages)('$name as published', (pack) => {
  const entries = entriesOf(pack.manifest);
  // A user's project: node_modules/<name> links to the package folder. Node follows the link to the
  // real path, so the package's own dependencies and peers resolve as installed.
  let project = '';
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'waitfor-user-'));
    mkdirSync(dirname(join(project, 'node_modules', pack.name)), { recursive: true });
    symlinkSync(pack.directory, join(project, 'node_modules', pack.name), 'dir');
    writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n');
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('has at least one entry besides ./package.json', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it('declares the same exports as its sources (the build is not stale)', () => {
    const declarations = entries.map((entry) => requireBuilt(pack, entry.types));
    const sources = entries.map((entry) => {
      const source = sourceOf(pack.directory, entry.types);
      if (!source) throw new Error(`${pack.name}: no source file builds ${entry.types}`);
      return source;
    });
    const built = exportedNames(pack.directory, declarations);
    const expected = exportedNames(pack.directory, sources);
    for (const [index, entry] of entries.entries()) {
      expect(
        built.get(declarations[index]!),
        `${entry.specifier} (rebuild with \`pnpm build\`)`,
      ).toEqual(expected.get(sources[index]!));
    }
  });

  it('gives plain Node every value its type declarations name, and nothing else', async () => {
    const declarations = entries.map((entry) => requireBuilt(pack, entry.types));
    for (const entry of entries) requireBuilt(pack, entry.code);
    const declared = exportedNames(pack.directory, declarations);
    const loaded = await loadInNode(
      project,
      entries.map((entry) => entry.specifier),
    );
    for (const [index, entry] of entries.entries()) {
      const values = declared
        .get(declarations[index]!)!
        .filter((name) => name.value)
        .map((name) => name.name)
        .sort();
      expect(values.length, `${entry.specifier} declares no runtime value`).toBeGreaterThan(0);
      expect(loaded[entry.specifier], entry.specifier).toEqual({ names: values });
    }
  });

  it('imports only its declared dependencies and peers, never a private workspace package', () => {
    const dist = dirname(requireBuilt(pack, entries[0]!.code));
    const allowed = new Set([
      ...Object.keys(pack.manifest.dependencies ?? {}),
      ...Object.keys(pack.manifest.peerDependencies ?? {}),
    ]);
    const problems: string[] = [];
    for (const file of builtFiles(dist)) {
      for (const specifier of importsOf(file)) {
        const name = packageNameOf(specifier);
        const where = `${relative(root, file)} imports ${specifier}`;
        // A private package is never published, so it must be bundled into dist, not imported.
        if (name && privateNames.has(name)) problems.push(`${where}: private, must be bundled`);
        else if (name && name !== pack.name && !allowed.has(name))
          problems.push(`${where}: not in dependencies or peerDependencies`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('@waitfor/react as published', () => {
  const pack = publicPackages.find((entry) => entry.name === '@waitfor/react')!;

  it("keeps 'use client' as the first statement of every built file whose source has it", () => {
    const dist = dirname(requireBuilt(pack, entriesOf(pack.manifest)[0]!.code));
    // Only what the entry reaches is built (and shipped); a stale build is the export test's catch.
    const clientFiles = builtFiles(dist)
      .filter((file) => file.endsWith('.mjs'))
      .filter((file) => {
        const source = sourceOf(pack.directory, `./${relative(pack.directory, file)}`);
        return source !== undefined && startsWithUseClient(source);
      });
    // Bundling would merge the hooks and components into index.mjs, whose source has no directive,
    // and leave nothing to check here: unbundle keeps one built file per source file.
    expect(clientFiles.length).toBeGreaterThan(5);
    const missing = clientFiles.filter((file) => !startsWithUseClient(file));
    expect(missing.map((file) => relative(root, file))).toEqual([]);
  });
});
