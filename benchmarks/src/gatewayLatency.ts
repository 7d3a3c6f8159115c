/**
 * Benchmark — the gateway's added latency. One bench server over Streamable HTTP (both eras on
 * one endpoint) and two gateways in front of it (`createGateway` + `serveHttp`), one pinned to each
 * upstream era. A host of each era (a v2 client pinned to 2026-07-28, and one in the 2025 era)
 * calls the same tool three ways, interleaved call by call: directly, through the gateway whose
 * upstream speaks its own era (pass-through) and through the other one (translated). The added
 * latency of a path is its median wall time minus the direct call's median, per call (`plain`, no
 * question) and per question (`confirm`'s added latency minus `plain`'s: what one question adds
 * beyond the call). On a miss a CPU profile names where the path spends its extra time.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type ClientOptions,
} from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from '@waitfor/gateway';
import { startBenchHttpServer, type BenchHttpServer } from './benchHttpServer';
import { ms } from './format';
import { selfTimeByOrigin } from './profile';
import type { BenchResult, Figure } from './result';
import { collectGarbage, median, quantile } from './stats';

/** Timed rounds (each calls every path of both hosts once, both tools), after WARMUP untimed. */
export const ROUNDS = 100;
const WARMUP = 15;
/** The budget of every added latency, in ms (median). */
export const BUDGET_MS = 1;
const PROFILED_CALLS = 40;
/** No profile is started past this many ms into the run (the runner's limit is 150 s). */
const PROFILE_UNTIL_MS = 100_000;
/** A window of the settle after each call, and the CPU under which it counts as quiet (ms). */
const QUIET_WINDOW_MS = 1;
const QUIET_CPU_MS = 0.1;
/** The longest settle after one call (ms). */
const SETTLE_MAX_MS = 100;

type Era = 'legacy' | 'modern';
type Path = 'direct' | 'pass-through' | 'translated' | 'relay';
type Tool = 'plain' | 'confirm';
const ERAS: readonly Era[] = ['modern', 'legacy'];
const PATHS: readonly Path[] = ['direct', 'pass-through', 'translated', 'relay'];
const TOOLS: readonly Tool[] = ['plain', 'confirm'];

const hostName = (era: Era) => (era === 'modern' ? '2026-07-28 host' : '2025 host');

/** A host of `era` on `url` whose person accepts every question at once. */
async function openHost(era: Era, url: string): Promise<Client> {
  const options = {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
  } as ClientOptions;
  const client = new Client({ name: `bench-${era}-host`, version: '1.0.0' }, options);
  client.setRequestHandler(
    'elicitation/create' as never,
    (async () => ({
      action: 'accept',
      content: { confirm: true },
    })) as never,
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One call, checked: a path that answers wrongly must fail the benchmark, not look fast. */
async function call(client: Client, tool: Tool): Promise<void> {
  const result = (await client.callTool({ name: tool, arguments: {} })) as {
    content?: Array<{ text?: string }>;
  };
  const text = result.content?.[0]?.text;
  const expected = tool === 'plain' ? 'done' : 'yes';
  if (text !== expected) throw new Error(`${tool} answered ${JSON.stringify(text)}`);
}

/**
 * The least any SDK-built proxy costs: a server whose one tool, `plain`, calls the upstream's
 * `plain` through a client of the same era and returns its content (no questions, no waitfor).
 */
function bareRelay(upstream: Client): () => McpServer {
  return () => {
    const server = new McpServer({ name: 'bare-relay', version: '1.0.0' });
    server.registerTool('plain', {}, async () => {
      const result = (await upstream.callTool({ name: 'plain', arguments: {} })) as {
        content: Array<{ type: 'text'; text: string }>;
      };
      return { content: result.content };
    });
    return server;
  };
}

interface Setup {
  clients: Record<Era, Record<Path, Client>>;
  close(): Promise<void>;
}

async function setUp(): Promise<Setup> {
  const upstream = await startBenchHttpServer();
  const gateways: Gateway[] = [];
  const endpoints: Partial<Record<Era, HttpEndpoint>> = {};
  for (const era of ERAS) {
    const gateway = await createGateway({ upstream: { url: upstream.url }, era, log: () => {} });
    gateways.push(gateway);
    endpoints[era] = await serveHttp(gateway);
  }
  const other = (era: Era): Era => (era === 'modern' ? 'legacy' : 'modern');
  const clients = {} as Setup['clients'];
  const relays: Array<{ upstream: Client; server: BenchHttpServer }> = [];
  for (const era of ERAS) {
    const relayed = await openHost(era, upstream.url);
    const relay = await startBenchHttpServer(bareRelay(relayed));
    relays.push({ upstream: relayed, server: relay });
    clients[era] = {
      direct: await openHost(era, upstream.url),
      'pass-through': await openHost(era, endpoints[era]!.url),
      translated: await openHost(era, endpoints[other(era)]!.url),
      relay: await openHost(era, relay.url),
    };
  }
  return {
    clients,
    close: async () => {
      for (const era of ERAS) for (const path of PATHS) await clients[era][path].close();
      for (const relay of relays) await relay.upstream.close().then(() => relay.server.close());
      for (const era of ERAS) await endpoints[era]?.close();
      for (const gateway of gateways) await gateway.close();
      await upstream.close();
    },
  };
}

type Times = Record<Era, Record<Tool, Record<Path, number[]>>>;

const emptyTimes = (): Times =>
  Object.fromEntries(
    ERAS.map((era) => [
      era,
      Object.fromEntries(
        TOOLS.map((tool) => [tool, Object.fromEntries(PATHS.map((path) => [path, []]))]),
      ),
    ]),
  ) as unknown as Times;

/**
 * Wait until this process is quiet: two windows in a row with next to no CPU used, at most
 * SETTLE_MAX_MS. Host, gateway and server share one process, so work a path leaves running after
 * its result (a gateway closing a session, opening a spare) would otherwise land in the next
 * path's call; a gateway of its own process does it beside its host, not inside the host's call.
 */
async function settle(): Promise<void> {
  const started = performance.now();
  let quiet = 0;
  while (quiet < 2 && performance.now() - started < SETTLE_MAX_MS) {
    const used = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const { user, system } = process.cpuUsage(used);
    quiet = (user + system) / 1000 < QUIET_CPU_MS ? quiet + 1 : 0;
  }
}

/**
 * Every path of every host and tool once per round, the order of the paths rotating by round:
 * wall time to the result, and the CPU time of this process (host, gateway and server together)
 * per call through the settle after it — so what a path does after its result counts for it —
 * which a loaded machine moves far less than the wall time.
 */
async function sample(setup: Setup): Promise<{ wall: Times; cpu: Times }> {
  const wall = emptyTimes();
  const cpu = emptyTimes();
  collectGarbage();
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const era of ERAS)
      for (const tool of TOOLS)
        for (let index = 0; index < PATHS.length; index++) {
          const path = PATHS[(index + round) % PATHS.length]!;
          // The bare relay relays no questions: it stands beside the per-call figures only.
          if (path === 'relay' && tool !== 'plain') continue;
          const start = performance.now();
          const used = process.cpuUsage();
          await call(setup.clients[era][path], tool);
          const elapsed = performance.now() - start;
          await settle();
          const { user, system } = process.cpuUsage(used);
          if (round < WARMUP) continue;
          wall[era][tool][path].push(elapsed);
          cpu[era][tool][path].push((user + system) / 1000);
        }
  }
  return { wall, cpu };
}

/** Median added by `path` over the direct call, for one host and tool. */
const added = (times: Times, era: Era, tool: Tool, path: Path) =>
  median(times[era][tool][path]) - median(times[era][tool].direct);

function figuresOf(times: Times, cpu: Times): Figure[] {
  const budget = { max: BUDGET_MS, label: `≤ ${BUDGET_MS.toFixed(2)} ms` };
  const figures: Figure[] = [];
  for (const era of ERAS) {
    const direct = (tool: Tool) =>
      `direct ${ms(median(times[era][tool].direct))} (p90 ${ms(quantile(times[era][tool].direct, 0.9))})`;
    for (const path of ['pass-through', 'translated'] as const) {
      const through = (tool: Tool) =>
        `${ms(median(times[era][tool][path]))} (p90 ${ms(quantile(times[era][tool][path], 0.9))})`;
      const upstream = path === 'pass-through' ? 'same era' : 'the other era';
      figures.push(
        {
          name: `${hostName(era)}, ${path} (upstream ${upstream}): added per call`,
          value: added(times, era, 'plain', path),
          unit: 'ms',
          runs: ROUNDS,
          budget,
          detail:
            `plain: through the gateway ${through('plain')}, ${direct('plain')}; CPU added per ` +
            `call ${ms(added(cpu, era, 'plain', path))}`,
        },
        {
          name: `${hostName(era)}, ${path} (upstream ${upstream}): added per question`,
          value: added(times, era, 'confirm', path) - added(times, era, 'plain', path),
          unit: 'ms',
          runs: ROUNDS,
          budget,
          detail:
            `confirm (one question): through the gateway ${through('confirm')}, ` +
            `${direct('confirm')}; added per call with its question ` +
            `${ms(added(times, era, 'confirm', path))}; CPU added per question ` +
            `${ms(added(cpu, era, 'confirm', path) - added(cpu, era, 'plain', path))}`,
        },
      );
    }
    figures.push({
      name: `${hostName(era)}, bare SDK relay (same era, no waitfor): added per call`,
      value: added(times, era, 'plain', 'relay'),
      unit: 'ms',
      runs: ROUNDS,
      detail:
        `reference, not budgeted: one more Streamable HTTP hop through a hand-written one-tool ` +
        `proxy on the same SDKs; plain through it ${ms(median(times[era].plain.relay))}; the ` +
        `gateway's pass-through adds ` +
        `${ms(added(times, era, 'plain', 'pass-through') - added(times, era, 'plain', 'relay'))} ` +
        `more per call; CPU added per call ${ms(added(cpu, era, 'plain', 'relay'))}`,
    });
  }
  return figures;
}

/** Where a path spends its extra CPU per call, from profiles of it and of the direct call. */
async function explain(setup: Setup, era: Era, tool: Tool, path: Path): Promise<string> {
  // Profiled apart from the timed calls: the profiler slows what it samples.
  const loop = (client: Client) => async (calls: number) => {
    for (let index = 0; index < calls; index++) await call(client, tool);
  };
  const profiled = await selfTimeByOrigin(PROFILED_CALLS, {
    through: loop(setup.clients[era][path]),
    direct: loop(setup.clients[era].direct),
  });
  const through = profiled.through!;
  const direct = profiled.direct!;
  const origins = new Set([...through.keys(), ...direct.keys()]);
  origins.delete('(idle/program)');
  const extra = [...origins]
    .map((origin): [string, number] => [
      origin,
      (through.get(origin) ?? 0) - (direct.get(origin) ?? 0),
    ])
    .sort((left, right) => right[1] - left[1]);
  // Only the gateway path runs @waitfor code: its self time there is the gateway's own work.
  const ours = extra.filter(([origin]) => origin.startsWith('@waitfor/'));
  const oursTotal = ours.reduce((sum, [, value]) => sum + value, 0);
  const list = (items: Array<[string, number]>) =>
    items
      .slice(0, 4)
      .map(([origin, value]) => `${origin} ${value.toFixed(0)} µs`)
      .join(', ');
  const others = extra.filter(([origin, value]) => !origin.startsWith('@waitfor/') && value > 0);
  return (
    `A CPU profile of ${PROFILED_CALLS} \`${tool}\` calls each way puts ` +
    `${oursTotal.toFixed(0)} µs per call in @waitfor code (${list(ours)}; the bridge's share ` +
    `stands in for SDK client work a bare relay does as well); the largest other ` +
    `differences, in code both paths run: ${list(others)}.`
  );
}

/** Run the benchmark. */
export async function benchGatewayLatency(): Promise<BenchResult> {
  const begun = performance.now();
  const setup = await setUp();
  try {
    const { wall, cpu } = await sample(setup);
    const figures = figuresOf(wall, cpu);
    const notes: string[] = [];
    for (const era of ERAS)
      for (const path of ['pass-through', 'translated'] as const) {
        const missed = figures.filter(
          (figure) =>
            figure.name.startsWith(`${hostName(era)}, ${path} `) && figure.value > BUDGET_MS,
        );
        if (missed.length === 0) continue;
        const tool = missed.some((figure) => figure.name.endsWith('per call'))
          ? 'plain'
          : 'confirm';
        // A 2026-07-28 host over HTTP has no session, and a 2025 server's pushes name no call: each
        // such call runs on an upstream session of its own (gateway.ts), which this path pays.
        const sessions =
          era === 'modern' && path === 'translated'
            ? ' Each call of this path runs on a 2025 upstream session of its own, so a push ' +
              'reaches only the call that caused it: the gateway opens it (initialize, ' +
              'initialized) ahead of the call as its spare and ends it (DELETE) after the ' +
              "result, both off the call's path; but in this one process that work shares the " +
              'cores with the host reading its result, and its CPU counts for this path.'
            : '';
        const gatewayCpu = added(cpu, era, 'plain', path);
        const hopCpu = added(cpu, era, 'plain', 'relay');
        notes.push(
          `${missed.map((figure) => `${figure.name} is ${ms(figure.value)}`).join('; ')}, over ` +
            `the ${ms(BUDGET_MS)} budget.${sessions} In CPU time, which the load on the machine ` +
            `moves less, this path adds ${ms(gatewayCpu)} per call, where one more Streamable ` +
            `HTTP hop through a bare SDK relay (a second HTTP server and client, their JSON-RPC ` +
            `parsing and zod validation) adds ${ms(hopCpu)}; the gateway's work beyond the hop ` +
            `is about ${ms(gatewayCpu - hopCpu)}` +
            (gatewayCpu - hopCpu < hopCpu ? ', so the hop is most of it. ' : '. ') +
            // The runner stops a benchmark at 150 s: on a machine this slow, no more profiles.
            (performance.now() - begun < PROFILE_UNTIL_MS
              ? await explain(setup, era, tool, path)
              : "No CPU profile: the run was too slow to take one within the runner's time."),
        );
      }
    return {
      id: 'gateway-latency',
      title: 'Gateway: added latency per call and per question',
      method:
        `A bench server (benchServer.ts) over Streamable HTTP on 127.0.0.1, both eras on one ` +
        `endpoint; two gateways (createGateway + serveHttp, each on 127.0.0.1) in front of it, ` +
        `one per upstream era; a v2 client pinned to 2026-07-28 and a v2 client in the 2025 era ` +
        `(its person accepts at once), each calling directly, through the gateway of its own era ` +
        `(pass-through), through the other (translated) and, for \`plain\`, through a bare ` +
        `one-tool relay on the same SDKs (the floor of any proxy hop), the order rotating call by call: ` +
        `${ROUNDS} timed rounds after ${WARMUP} untimed, every round calling \`plain\` (no ` +
        `question) and \`confirm\` (one form question) on every path. All in one Node process, ` +
        `so after each call the next waits until the process is quiet (two ` +
        `${ms(QUIET_WINDOW_MS)} windows in a row under ${ms(QUIET_CPU_MS)} of CPU, at most ` +
        `${ms(SETTLE_MAX_MS)}): what a path leaves running after its result (the gateway ` +
        `closing a session, opening a spare) is not timed in the next path's call. Wall time is ` +
        `to the result; the CPU time of the process per call (host, gateway and server together) ` +
        `runs through that settle, so such work counts for the path that caused it. Added ` +
        `latency is the median wall time of a path minus the direct call's median; per question ` +
        `is confirm's added latency minus plain's; CPU is reduced the same way. Budget ≤ ` +
        `${ms(BUDGET_MS)} median added wall time.`,
      figures,
      notes,
    };
  } finally {
    await setup.close();
  }
}
