import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { entriesOf, type Manifest } from './packageSurface';
import {
  codeBlocksOf,
  importedPackages,
  installedPackages,
  packageQuickStart,
  rootQuickStart,
  type CheckedFile,
} from './readmeBlocks';

// What a user gets: each public package packed by pnpm (which rewrites `workspace:` ranges), the
// tarballs installed by npm into an app outside the workspace, the README quick starts compiled
// there with `tsc --strict`, and the root README's terminal quick start run against a real MCP
// server. Which README blocks are checked, and the markers for fragments: readmeBlocks.ts.
// Relies on `pnpm build` (verify builds first); needs the npm registry for the peers.
const root = fileURLToPath(new URL('..', import.meta.url));
const pnpm = ['-y', 'pnpm@12.4.2'];
const minutes = 60_000;

type PublishedManifest = Manifest & {
  version: string;
  license?: string;
  engines?: Record<string, string>;
  keywords?: string[];
  repository?: { type?: string; url?: string; directory?: string };
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
type WorkspacePackage = { name: string; folder: string; manifest: PublishedManifest };

/** Every packages/* folder with a manifest. */
const workspace: WorkspacePackage[] = readdirSync(join(root, 'packages'))
  .filter((folder) => existsSync(join(root, 'packages', folder, 'package.json')))
  .map((folder) => {
    const text = readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8');
    const manifest = JSON.parse(text) as PublishedManifest;
    return { name: manifest.name, folder, manifest };
  });
const publicPackages = workspace.filter((entry) => !entry.manifest.private);
const privateNames = new Set(
  workspace.filter((entry) => entry.manifest.private).map((e) => e.name),
);

/** The manifest fields whose packages a user's install fetches. */
const installedFields = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** A package's README text. */
function readmeOf(pack: WorkspacePackage): string {
  const path = join(root, 'packages', pack.folder, 'README.md');
  if (!existsSync(path)) throw new Error(`${pack.name} has no README.md`);
  return readFileSync(path, 'utf8');
}

/** The packages a package README's install block names (its first code block, a shell one). */
function installLineOf(pack: WorkspacePackage): string[] {
  const first = codeBlocksOf(readmeOf(pack))[0];
  if (!first || first.language !== 'sh') return [];
  return installedPackages(first.code);
}

/** Runs a command to its end; throws with its output when it fails. */
function run(command: string, args: string[], cwd: string, timeout = 5 * minutes): string {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

/** The environment without the npm_* settings a parent pnpm run exports (they would steer npm). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  ) as NodeJS.ProcessEnv;
}

/** The version of an outside package the workspace itself uses (exact where it pins one). */
function workspaceVersion(name: string): string {
  const manifests = [
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PublishedManifest,
    ...workspace.map((entry) => entry.manifest),
  ];
  const ranges = manifests.flatMap((manifest) =>
    [manifest.devDependencies, manifest.dependencies].flatMap((field) =>
      field && Object.hasOwn(field, name) ? [field[name]!] : [],
    ),
  );
  const range = ranges.find((candidate) => /^\d/.test(candidate)) ?? ranges[0];
  if (range === undefined) throw new Error(`the workspace uses no ${name}: add it to a manifest`);
  return range;
}

let temporary = '';
let packed = '';
let app = '';
const tarballs = new Map<string, string>();

beforeAll(() => {
  for (const pack of publicPackages) {
    const entries = entriesOf(pack.manifest);
    for (const file of entries.flatMap((entry) => [entry.types, entry.code]))
      if (!existsSync(join(root, 'packages', pack.folder, file)))
        throw new Error(`${pack.name}: ${file} is missing; run \`pnpm build\` before this test`);
  }
  temporary = mkdtempSync(join(tmpdir(), 'waitfor-packed-'));
  packed = join(temporary, 'tarballs');
  mkdirSync(packed);
  // One pnpm run packs them all; `--filter` keeps the private runtime out.
  const filters = publicPackages.flatMap((pack) => ['--filter', pack.name]);
  run('npx', [...pnpm, '-r', ...filters, 'pack', '--pack-destination', packed], root);
  for (const pack of publicPackages) {
    const file = `${pack.name.replace('@', '').replace('/', '-')}-${pack.manifest.version}.tgz`;
    if (!existsSync(join(packed, file))) throw new Error(`pnpm pack wrote no ${file}`);
    tarballs.set(pack.name, join(packed, file));
  }
}, 5 * minutes);

afterAll(() => {
  if (temporary) rmSync(temporary, { recursive: true, force: true });
}, 2 * minutes);

describe.each(publicPackages)('$name, packed by pnpm', (pack) => {
  let manifest: PublishedManifest;
  let files: string[] = [];
  beforeAll(() => {
    const tarball = tarballs.get(pack.name)!;
    files = run('tar', ['-tzf', tarball], temporary)
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], temporary));
  });

  it('has no workspace: range and depends on no private package', () => {
    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    const problems = installedFields.flatMap((field) =>
      Object.keys(manifest[field] ?? {})
        .filter((name) => privateNames.has(name))
        .map((name) => `${field}.${name}: private, must be bundled`),
    );
    expect(problems).toEqual([]);
  });

  it('holds LICENSE, README.md and every file its exports name', () => {
    expect(files).toContain('LICENSE');
    expect(files).toContain('README.md');
    for (const entry of entriesOf(manifest))
      for (const file of [entry.types, entry.code]) expect(files).toContain(file.slice(2));
  });

  // The workspace's '@waitfor/source' condition names ./src files the tarball does not hold:
  // .pnpmfile.cjs strips it when packing, so every path the exports name is in the tarball.
  it('exports only files it holds (no source condition)', () => {
    expect(JSON.stringify(manifest.exports)).not.toContain('@waitfor/source');
    const targets = (target: unknown): string[] =>
      typeof target === 'string'
        ? [target]
        : Object.values(target as Record<string, unknown>).flatMap(targets);
    for (const path of targets(manifest.exports)) expect(files).toContain(path.slice(2));
  });

  it('names its repository, license, engines and keywords', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository).toEqual({
      type: 'git',
      url: expect.stringMatching(/^git\+https:\/\/.+\.git$/),
      directory: `packages/${pack.folder}`,
    });
    expect(manifest.engines?.node).toBe('>=20.19');
    expect(manifest.keywords?.length).toBeGreaterThan(2);
  });

  it('its README starts with an install line naming what the quick start imports', () => {
    const install = installLineOf(pack);
    expect(install, 'the first code block: ```sh npm install …').toContain(pack.name);
    const required = Object.keys(manifest.peerDependencies ?? {}).filter(
      (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
    );
    const imported = packageQuickStart(readmeOf(pack)).flatMap((file) =>
      importedPackages(file.code),
    );
    const missing = [...new Set([...required, ...imported])].filter(
      (name) => !install.includes(name),
    );
    expect(missing).toEqual([]);
  });
});

describe('the packages installed by npm in an app outside the workspace', () => {
  // What the app installs besides the tarballs, at the versions the workspace uses: what the
  // install lines name, what a TypeScript user adds (the compiler, types for Node, React and pg,
  // which ships none), and the trip server's SDK.
  const extras = [
    'typescript',
    '@types/node',
    '@types/react',
    '@types/react-dom',
    '@types/pg',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/node',
    'zod',
  ];
  const outside = () => [
    ...new Set([
      ...publicPackages.flatMap(installLineOf).filter((name) => !tarballs.has(name)),
      ...extras,
    ]),
  ];
  // PGlite's declarations use Emscripten's types without depending on them, so a user who
  // type-checks libraries (skipLibCheck: false) adds them; the workspace skips library checks.
  // The version is the one PGlite builds with.
  const beyondWorkspace: Record<string, string> = { '@types/emscripten': '^1.41.1' };
  const checked: { name: string; source: string; file: CheckedFile }[] = [];

  beforeAll(() => {
    app = join(temporary, 'app');
    mkdirSync(app);
    const dependencies: Record<string, string> = {};
    for (const [name, tarball] of tarballs) dependencies[name] = `file:${tarball}`;
    for (const name of outside()) dependencies[name] = workspaceVersion(name);
    Object.assign(dependencies, beyondWorkspace);
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'scratch-app', private: true, type: 'module', dependencies }, null, 2)}\n`,
    );
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], app, 8 * minutes);

    mkdirSync(join(app, 'readme'));
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const [index, file] of rootQuickStart(readme).entries())
      checked.push({ name: `root-${index + 1}`, source: 'README.md', file });
    for (const pack of publicPackages)
      for (const [index, file] of packageQuickStart(readmeOf(pack)).entries())
        checked.push({
          name: `${pack.folder}-${index + 1}`,
          source: `packages/${pack.folder}/README.md`,
          file,
        });
    for (const { name, source, file } of checked)
      // `export {}` keeps each file a module, so two quick starts may use the same names.
      writeFileSync(
        join(app, 'readme', `${name}.${file.extension}`),
        `// ${source}, the block at line ${file.line}\n${file.code}\nexport {};\n`,
      );
  }, 10 * minutes);

  it('installs one copy of each package, from the tarballs', () => {
    for (const [name] of tarballs) {
      const installed = join(app, 'node_modules', name);
      expect(existsSync(join(installed, 'package.json')), name).toBe(true);
      // A nested @waitfor folder would be a second copy fetched from the registry.
      expect(existsSync(join(installed, 'node_modules', '@waitfor')), `${name} nests a copy`).toBe(
        false,
      );
    }
  });

  it('finds a quick start in the root README and in every package README', () => {
    expect(checked.filter((entry) => entry.name.startsWith('root-')).length).toBeGreaterThan(0);
    for (const pack of publicPackages)
      expect(
        checked.some((entry) => entry.name.startsWith(`${pack.folder}-`)),
        pack.name,
      ).toBe(true);
  });

  it.each([
    ['nodenext', 'nodenext'],
    ['esnext', 'bundler'],
  ])(
    'type-checks the quick starts with tsc --strict (module %s, resolution %s)',
    (module, resolution) => {
      const config = {
        compilerOptions: {
          strict: true,
          module,
          moduleResolution: resolution,
          target: 'es2022',
          lib: ['es2023', 'dom', 'dom.iterable'],
          // Emscripten's are global types PGlite's declarations use without referencing them.
          types: ['node', 'emscripten'],
          jsx: 'react-jsx',
          skipLibCheck: false,
          noEmit: resolution !== 'nodenext',
          outDir: 'out',
          rootDir: 'readme',
        },
        include: ['readme'],
      };
      writeFileSync(join(app, `tsconfig.${module}.json`), JSON.stringify(config, null, 2));
      const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', `tsconfig.${module}.json`], {
        cwd: app,
        encoding: 'utf8',
        timeout: 5 * minutes,
      });
      expect(result.stdout + result.stderr).toBe('');
      expect(result.status).toBe(0);
    },
    6 * minutes,
  );

  it(
    "runs the root README's terminal quick start against a local MCP server",
    async () => {
      // The first quick start, as tsc emitted it above, with the README's address replaced by the
      // local server's.
      const emitted = join(app, 'out', 'root-1.js');
      expect(existsSync(emitted), 'the nodenext type check emits it').toBe(true);
      cpSync(join(root, 'scripts', '__fixtures__', 'tripServer.mjs'), join(app, 'tripServer.mjs'));
      const server = spawn(process.execPath, ['tripServer.mjs'], { cwd: app, env: cleanEnv() });
      let serverOutput = '';
      server.stdout.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
      server.stderr.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
      try {
        const url = await vi.waitFor(
          () => {
            const found = /^(http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(serverOutput)?.[1];
            if (!found) throw new Error(`the trip server did not start: ${serverOutput}`);
            return found;
          },
          { timeout: minutes, interval: 50 },
        );
        const readmeAddress = 'http://127.0.0.1:3000/mcp';
        const code = readFileSync(emitted, 'utf8');
        expect(code, 'the quick start connects to the README address').toContain(readmeAddress);
        writeFileSync(join(app, 'out', 'run.js'), code.replaceAll(readmeAddress, url));

        const quickStart = spawn(process.execPath, ['out/run.js'], { cwd: app, env: cleanEnv() });
        let output = '';
        quickStart.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        quickStart.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        // A hang is caught by this deadline; the quick start must end on its own once closed.
        const deadline = setTimeout(() => quickStart.kill('SIGKILL'), 2 * minutes);
        const status = await new Promise<number | null>((resolve) =>
          quickStart.on('close', (exitCode) => resolve(exitCode)),
        );
        clearTimeout(deadline);
        expect(output).toBe('');
        expect(status).toBe(0);
        // The form was accepted with its defaults through the quick start's waitFor.
        await expect
          .poll(() => serverOutput, { timeout: 10_000 })
          .toContain('booked Lisbon {"travellers":2,"cabin":"economy"}');
      } finally {
        server.kill();
      }
    },
    4 * minutes,
  );
});
