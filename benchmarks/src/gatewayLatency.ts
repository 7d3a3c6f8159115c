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

/** Every path of every host and tool once per round, the order of the paths rotating by round. */
async function sample(setup: Setup): Promise<Times> {
  const times = Object.fromEntries(
    ERAS.map((era) => [
      era,
      Object.fromEntries(
        TOOLS.map((tool) => [tool, Object.fromEntries(PATHS.map((path) => [path, []]))]),
      ),
    ]),
  ) as unknown as Times;
  collectGarbage();
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const era of ERAS)
      for (const tool of TOOLS)
        for (let index = 0; index < PATHS.length; index++) {
          const path = PATHS[(index + round) % PATHS.length]!;
          // The bare relay relays no questions: it stands beside the per-call figures only.
          if (path === 'relay' && tool !== 'plain') continue;
          const start = performance.now();
          await call(setup.clients[era][path], tool);
          const elapsed = performance.now() - start;
          if (round >= WARMUP) times[era][tool][path].push(elapsed);
        }
  }
  return times;
}

/** Median added by `path` over the direct call, for one host and tool. */
const added = (times: Times, era: Era, tool: Tool, path: Path) =>
  median(times[era][tool][path]) - median(times[era][tool].direct);

function figuresOf(times: Times): Figure[] {
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
          detail: `plain: through the gateway ${through('plain')}, ${direct('plain')}`,
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
            `${ms(added(times, era, 'confirm', path))}`,
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
        `more per call`,
    });
  }
  return figures;
}

/** Where a path spends its extra CPU per call, from profiles of it and of the direct call. */
async function explain(setup: Setup, era: Era, tool: Tool, path: Path): Promise<string> {
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
  const total = extra.reduce((sum, [, value]) => sum + value, 0);
  const ours = extra
    .filter(([origin]) => origin.startsWith('@waitfor/'))
    .reduce((sum, [, value]) => sum + value, 0);
  const top = extra
    .slice(0, 6)
    .map(([origin, value]) => `${origin} ${value.toFixed(0)} µs`)
    .join(', ');
  return (
    `${hostName(era)}, ${path}, ${tool}: a CPU profile of ${PROFILED_CALLS} calls each way ` +
    `(host, gateway and server share this one process) puts ${total.toFixed(0)} µs more CPU per ` +
    `call on the gateway path, ${ours.toFixed(0)} µs of it in @waitfor code; the largest ` +
    `shares: ${top}.`
  );
}

/** Run the benchmark. */
export async function benchGatewayLatency(): Promise<BenchResult> {
  const setup = await setUp();
  try {
    const times = await sample(setup);
    const figures = figuresOf(times);
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
        // A 2026-07-28 host over HTTP has no session, and a 2025 server's pushes name no call: the
        // gateway opens an upstream session for each such call (gateway.ts), which this path pays.
        const sessions =
          era === 'modern' && path === 'translated'
            ? ' Each call of this path opens a 2025 upstream session of its own (initialize, ' +
              'initialized, the call, DELETE), so a push reaches only the call that caused it.'
            : '';
        notes.push(
          `${missed.map((figure) => `${figure.name} is ${ms(figure.value)}`).join('; ')}, over ` +
            `the ${ms(BUDGET_MS)} budget.${sessions} ` +
            (await explain(setup, era, tool, path)),
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
        `(pass-through) and through the other (translated), the order rotating call by call: ` +
        `${ROUNDS} timed rounds after ${WARMUP} untimed, every round calling \`plain\` (no ` +
        `question) and \`confirm\` (one form question) on every path. All in one Node process. ` +
        `Added latency is the median wall time of a path minus the direct call's median; per ` +
        `question is confirm's added latency minus plain's. Budget ≤ ${ms(BUDGET_MS)} median added.`,
      figures,
      notes,
    };
  } finally {
    await setup.close();
  }
}
