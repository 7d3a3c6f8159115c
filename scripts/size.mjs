// Prints the min+gzip size of what a user's bundler keeps for each documented import: the import
// alone (`import { connect } from '@waitfor/mcp-bridge'`), bundled from source by esbuild with
// tree-shaking, minified and gzipped. What the user downloads with it is counted: the package's
// dependencies (@waitfor/core, the private @waitfor/runtime, which every package bundles). Peers
// are left out: a user installs and imports them on their own (React, the MCP SDK, zod, the bridge
// for legacy-spec and the store), and each waitfor peer is measured by its own import.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The export condition under which every package.json names an entry's source. */
const sourceCondition = '@waitfor/source';

/** Every package of packages/, by name: its folder and its manifest. */
const packages = new Map(
  readdirSync(`${root}packages`, { withFileTypes: true })
    .filter((folder) => folder.isDirectory())
    .flatMap((folder) => {
      try {
        const manifest = JSON.parse(
          readFileSync(`${root}packages/${folder.name}/package.json`, 'utf8'),
        );
        return [[manifest.name, { folder: `packages/${folder.name}`, manifest }]];
      } catch {
        return [];
      }
    }),
);

const kib = 1024;

/**
 * Each documented import (the READMEs' quick starts; size.test.ts holds the list to them) with its
 * budget in bytes (min+gzip). A budget is a growth alarm, not a target to golf towards: the
 * import's size when it was last reset (the comment), plus 10–15 % headroom. A change that crosses
 * one says why in its commit and resets it, or takes the growth out.
 */
export const entries = [
  // 1,999 B since the inbox remembers how its questions ended (`ended(id)`, in runtime's bounded
  // memory) for a late answer's 409 (1,712 B before).
  { from: '@waitfor/core', names: ['createInbox'], budget: 2.2 * kib },
  // 2,471 B: the core README's quick start (policies and the bound), with the listener primitive,
  // the error base and the inbox's memory of how questions ended (2,185 B before).
  {
    from: '@waitfor/core',
    names: [
      'accept',
      'boundWaitFor',
      'createInbox',
      'decline',
      'declineKinds',
      'httpUrlsOnly',
      'withPolicies',
    ],
    budget: 2.7 * kib,
  },
  // 7,371 B, most of it core/form's schema parsing and answer checks.
  { from: '@waitfor/core/tools', names: ['pending', 'runTool'], budget: 8 * kib },
  // 7,130 B, with core/form and core/tools' suspension reader.
  { from: '@waitfor/core/zod', names: ['ask', 'askUrl', 'defineQuestion'], budget: 7.75 * kib },
  // 21,807 B: the bridge with its hardening limits, both eras, the task route (SEP-2663 and
  // 2025-11-25 tasks, durable task references, the receiver of task-augmented elicitation) and
  // core/form. Reset when the task route landed (14,480 B before, +6.8 KB); every host bundle keeps
  // it today — loading the task route only when a server answers with a task would take it out.
  { from: '@waitfor/mcp-bridge', names: ['attachWaitFor'], budget: 24 * kib },
  // 23,183 B: attachWaitFor and the transports, state and reconnection of a connection (15,712 B
  // before the task route).
  { from: '@waitfor/mcp-bridge', names: ['connect'], budget: 25.5 * kib },
  // 3,495 B with the error base and the registry as a class (3,038 B before; the bridge is a peer).
  { from: '@waitfor/legacy-spec', names: ['createLegacySpec'], budget: 3.9 * kib },
  // 3,894 B with the MCP semantic conventions (@opentelemetry/api is a peer).
  { from: '@waitfor/otel', names: ['createTelemetry'], budget: 4.3 * kib },
  // 13,804 B: the list, every question's view and core/form's checks of an answer.
  { from: '@waitfor/react', names: ['RequestList', 'WaitforProvider'], budget: 15.25 * kib },
  // 8,171 B, with core/form's check of an answer.
  { from: '@waitfor/http', names: ['createInboxHandler'], budget: 9 * kib },
  // 4,003 B: what a page downloads to reach a server's inbox, since it remembers how its questions
  // ended (a change event's `ended`, a 409's reason, checked as untrusted) in runtime's bounded
  // memory (3,442 B before).
  { from: '@waitfor/http/client', names: ['createRemoteInbox'], budget: 4.4 * kib },
  // 19,555 B, most of it SQL text; a server package, where bytes cost little (18,473 B before a
  // task question's answer was taken before it is sent, given back past taskAnswerWaitMs, and
  // the inbox split into files; 16,562 B before the task route). PGlite, a
  // dependency, is left out: postgresDriver never loads it, pgliteDriver loads it on demand (a
  // ~9 MB WebAssembly build that no JS budget could hold); `pg` is a peer.
  {
    from: '@waitfor/store',
    names: ['createStore', 'postgresDriver'],
    external: ['@electric-sql/pglite', 'node:*'],
    budget: 20.5 * kib,
  },
  // 1,571 B with `approve` (the bridge and `ai` are peers).
  { from: '@waitfor/ai-sdk', names: ['mcpTools'], budget: 1.75 * kib },
  // 1,058 B with core's error base (the bridge and @langchain/langgraph are peers).
  {
    from: '@waitfor/langgraph',
    names: ['callToolWithInterrupt', 'waitforInterrupts'],
    budget: 1.2 * kib,
  },
  // 1,083 B.
  { from: '@waitfor/langgraph', names: ['mcpToolNode'], budget: 1.2 * kib },
  // 119.4 KB: a Node server (stdio, HTTP); the MCP server and client SDKs it depends on are counted
  // (117.4 KB with serveStdio, the gateway's own stdio entry, since the README's quick start uses it).
  // PGlite, which the page for hosts that cannot ask keeps its questions in, is left out as for
  // the store (a WebAssembly build loaded on demand).
  {
    from: '@waitfor/gateway',
    names: ['createGateway', 'serveHttp', 'serveStdio'],
    external: ['node:*', '@electric-sql/pglite'],
    budget: 135 * kib,
  },
].map((entry) => ({ ...entry, name: `{ ${entry.names.join(', ')} } from '${entry.from}'` }));

/** The package an import specifier names: '@waitfor/core/form' → '@waitfor/core'. */
export const packageOf = (specifier) => specifier.split('/').slice(0, 2).join('/');

/** A package's peers and, through its @waitfor dependencies, theirs: left out of its bundle. */
function peersOf(name, seen = new Set()) {
  const found = packages.get(name);
  if (!found || seen.has(name)) return [];
  seen.add(name);
  const { dependencies = {}, peerDependencies = {} } = found.manifest;
  return [
    ...Object.keys(peerDependencies),
    ...Object.keys(dependencies).flatMap((dependency) => peersOf(dependency, seen)),
  ];
}

/** A peer's subpaths too ('react' → 'react/*'). */
const withSubpaths = (names) => names.flatMap((name) => [name, `${name}/*`]);

/**
 * The esbuild options every measurement of `entry` uses (the benchmarks add a metafile).
 * @returns {import('esbuild').BuildOptions & { write: false }}
 */
export function esbuildOptions(entry) {
  const found = packages.get(packageOf(entry.from));
  if (!found) throw new Error(`${entry.from} is not a package of packages/`);
  return {
    stdin: {
      contents: `export { ${entry.names.join(', ')} } from '${entry.from}';`,
      // The package's own folder: its name resolves through its exports (a self-reference).
      resolveDir: `${root}${found.folder}`,
      sourcefile: 'documented-import.js',
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: [sourceCondition],
    external: [...withSubpaths(peersOf(packageOf(entry.from))), ...(entry.external ?? [])],
    write: false,
    logLevel: 'silent',
    jsx: 'automatic',
  };
}

/** Bundles one import and returns its minified and gzipped sizes in bytes. */
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
  console.log('| import | min | min+gzip | budget | within |');
  console.log('|---|---:|---:|---:|:---:|');
  for (const row of rows) {
    console.log(
      `| \`${row.name}\` | ${kb(row.minified)} | ${kb(row.gzipped)} | ${kb(row.budget)} | ${row.within ? 'yes' : 'NO'} |`,
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
