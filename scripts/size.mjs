// Prints the min+gzip size of every public entry, bundled from source with esbuild. Peer
// dependencies and the other public @waitfor packages are left out (each is counted on its own);
// regular dependencies such as zod are counted, because a user downloads them, and so is the
// private @waitfor/runtime, which every package bundles.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every public entry with its budget in bytes (min+gzip). */
// A budget is a growth alarm on what a user's bundler keeps, not a target to golf towards: each is
// the entry's size when it was last reset, plus headroom. A change that crosses one says why (in
// its commit) and resets it, or takes the growth out.
export const entries = [
  // 2,072 B with the Request-id rule (an id every HTTP route can reach).
  { name: '@waitfor/core', file: 'packages/core/src/index.ts', budget: 2.25 * 1024 },
  { name: '@waitfor/core/form', file: 'packages/core/src/form.ts', budget: 15 * 1024 },
  // `own`: only these folders are counted. What they import from core and core/form is counted by
  // those entries (the build splits shared code into chunks, so an app downloads it once).
  {
    name: '@waitfor/core/tools',
    file: 'packages/core/src/tools.ts',
    own: ['packages/core/src/tools/'],
    budget: 4 * 1024,
  },
  {
    name: '@waitfor/core/zod',
    file: 'packages/core/src/zod.ts',
    own: ['packages/core/src/zod/', 'packages/core/src/tools/'],
    budget: 3 * 1024,
  },
  // The target is 10 KB (10,240 B: the hardening limits and the host-facing facade; was 8 KB). It
  // is missed: 11,094 B (10.83 KB), 1,195 B of it `connect` (transport options, state,
  // reconnection; the entry without it is 9,899 B). Three rounds of cuts took 0.5 KB out; the
  // per-question speed work and the Mcp-Param-* headers put some back. The 854 B left are mostly
  // features (connect, the v1 port ~0.3 KB, the Mcp-Param-* headers ~0.2 KB). `connect` stays in
  // the main entry: it is the quick start, and an entry of its own would not make a connect user
  // download less. The test holds the line at 11 KB so the bundle cannot grow.
  { name: '@waitfor/mcp-bridge', file: 'packages/mcp-bridge/src/index.ts', budget: 11 * 1024 },
  { name: '@waitfor/legacy-spec', file: 'packages/legacy-spec/src/index.ts', budget: 3 * 1024 },
  // @opentelemetry/api is a peer: left out, like every peer. 3,940 B with the MCP semantic
  // conventions (propagation through the configured propagator, the operation-duration histogram,
  // error attributes, the server option).
  { name: '@waitfor/otel', file: 'packages/otel/src/index.ts', budget: 4.5 * 1024 },
  // About 9 KB once the person is told why an answer did not go through (departed questions, the
  // server's field errors, forms kept per question).
  { name: '@waitfor/react', file: 'packages/react/src/index.ts', budget: 10 * 1024 },
  // The server handler and the browser's remote inbox are separate entries: a page never downloads
  // the handler. The Node adapter (@waitfor/http/node) runs on servers only and has no budget.
  { name: '@waitfor/http', file: 'packages/http/src/index.ts', budget: 4 * 1024 },
  { name: '@waitfor/http/client', file: 'packages/http/src/client.ts', budget: 3 * 1024 },
  // `external`: PGlite, a dependency, is left out: pgliteDriver loads it on demand (a dynamic
  // import) and it is a ~9 MB WebAssembly build that no JS budget could hold; `pg` is a peer.
  // 11,856 B once every state change names the state it leaves and answers are delivered (most of
  // it SQL text); a server package, where bytes cost little.
  {
    name: '@waitfor/store',
    file: 'packages/store/src/index.ts',
    external: ['@electric-sql/pglite', 'node:*'],
    budget: 13 * 1024,
  },
  { name: '@waitfor/ai-sdk', file: 'packages/ai-sdk/src/index.ts', budget: 1.7 * 1024 },
];

function externalsOf(file) {
  const manifest = JSON.parse(
    readFileSync(new URL(`../${file.split('/src/')[0]}/package.json`, import.meta.url), 'utf8'),
  );
  return [
    ...Object.keys(manifest.peerDependencies ?? {}),
    '@modelcontextprotocol/*',
    'react',
    'react/*',
    'react-dom',
    'react-dom/*',
  ];
}

/** Leaves out the public @waitfor packages; @waitfor/runtime is bundled, as the builds do. */
const publicPackagesOnly = {
  name: 'public-packages-only',
  setup(plugin) {
    plugin.onResolve({ filter: /^@waitfor\// }, (args) =>
      args.path === '@waitfor/runtime' ? undefined : { path: args.path, external: true },
    );
  },
};

/** Leaves out every relative import outside `own` (counted by the entry it belongs to). */
const ownFilesOnly = (own) => ({
  name: 'own-files-only',
  setup(plugin) {
    plugin.onResolve({ filter: /^\./ }, (args) => {
      const path = join(args.resolveDir, args.path);
      return own.some((folder) => path.startsWith(`${root}${folder}`))
        ? undefined
        : { path, external: true };
    });
  },
});

/**
 * The esbuild options every measurement of `entry` uses (the benchmarks add a metafile).
 * @returns {import('esbuild').BuildOptions & { write: false }}
 */
export function esbuildOptions(entry) {
  return {
    entryPoints: [`${root}${entry.file}`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: [...externalsOf(entry.file), ...(entry.external ?? [])],
    write: false,
    logLevel: 'silent',
    jsx: 'automatic',
    plugins: entry.own ? [publicPackagesOnly, ownFilesOnly(entry.own)] : [publicPackagesOnly],
  };
}

/** Bundles one entry and returns its minified and gzipped sizes in bytes. */
export async function measure(entry) {
  const result = await build(esbuildOptions(entry));
  const code = result.outputFiles[0].contents;
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

/**
 * Reads `--budget-scale=<factor>`, which multiplies every budget: this script's own tests shrink
 * them to force a miss. Throws on anything but a positive number.
 */
function budgetScaleOf(argv) {
  const flag = argv.find((argument) => argument.startsWith('--budget-scale'));
  if (flag === undefined) return 1;
  const scale = Number(flag.slice('--budget-scale='.length));
  if (!flag.startsWith('--budget-scale=') || !Number.isFinite(scale) || scale <= 0)
    throw new Error(
      `--budget-scale needs a positive number, as in --budget-scale=0.5 (got ${flag})`,
    );
  return scale;
}

async function main({ budgetScale = 1 } = {}) {
  const rows = [];
  for (const entry of entries) {
    const size = await measure(entry);
    const budget = Math.floor(entry.budget * budgetScale);
    rows.push({ ...entry, ...size, budget, within: size.gzipped <= budget });
  }
  if (budgetScale !== 1) console.log(`Budgets scaled by ${budgetScale} (--budget-scale).`);
  const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
  console.log('| entry | min | min+gzip | budget | within |');
  console.log('|---|---:|---:|---:|:---:|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${kb(row.minified)} | ${kb(row.gzipped)} | ${kb(row.budget)} | ${row.within ? 'yes' : 'NO'} |`,
    );
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let budgetScale = 1;
  try {
    budgetScale = budgetScaleOf(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const missed = (await main({ budgetScale })).filter((row) => !row.within);
  for (const row of missed)
    console.error(`${row.name} is over its budget: ${row.gzipped} B > ${row.budget} B (min+gzip)`);
  // A non-zero exit stops `pnpm verify`; printing "NO" alone let a missed budget through.
  if (missed.length > 0) process.exitCode = 1;
}

export { main };
