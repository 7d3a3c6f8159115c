/**
 * A client nobody here wrote drives the gateway: the MCP Inspector's CLI
 * (`@modelcontextprotocol/inspector-cli`, v1 SDK client) lists server-everything's tools and calls
 * one, through the gateway command over stdio and through its HTTP endpoint, and sees what it
 * sees when it talks to server-everything itself.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childTsconfig, gatewayBin, tsxBinary } from './__fixtures__/hosts';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

const require = createRequire(import.meta.url);
const packageOf = (name: string) => dirname(require.resolve(`${name}/package.json`));
const everything = [
  process.execPath,
  join(packageOf('@modelcontextprotocol/server-everything'), 'dist/index.js'),
  'stdio',
];
const inspector = join(packageOf('@modelcontextprotocol/inspector-cli'), 'build/index.js');
// The CLI looks for its own package.json by testing `../package.json` against the working
// directory but imports it relative to itself: any directory whose parent holds a package.json
// passes the test, so it runs from this one.
const cwd = fileURLToPath(new URL('.', import.meta.url));

/** Run the inspector CLI on `target` (a command or an URL); its stdout is the JSON result. */
function inspect(target: string[], method: string[]): Promise<Record<string, unknown>> {
  const [command, ...args] = target;
  // Its own options go before the first `--`; everything after it is the target's arguments.
  const argv = [inspector, command!, ...method, '--', ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`inspector exited ${code}: ${stderr}`));
      resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

const listTools = ['--method', 'tools/list'];
const echo = ['--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=through'];
const gatewayCommand = [
  tsxBinary,
  '--tsconfig',
  childTsconfig,
  gatewayBin,
  '--no-open',
  '--',
  ...everything,
];

let directList: Record<string, unknown>;
beforeAll(async () => {
  directList = await inspect(everything, listTools);
}, 60_000);

type Tool = { name: string };
const toolsOf = (listed: Record<string, unknown>) => listed.tools as Tool[];

/**
 * server-everything lists some tools only to a client that declares elicitation, sampling or
 * roots. The inspector declares none; the gateway declares all three upstream (it relays them, or
 * asks the person on its page): so it sees those four besides, and every other tool unchanged.
 */
const gated = [
  'get-roots-list',
  'trigger-elicitation-request',
  'trigger-sampling-request',
  'trigger-url-elicitation',
];

function expectSameTools(listed: Record<string, unknown>): void {
  const direct = toolsOf(directList);
  expect(direct.map((tool) => tool.name)).toContain('echo');
  expect(toolsOf(listed).filter((tool) => !gated.includes(tool.name))).toEqual(direct);
  expect(toolsOf(listed).map((tool) => tool.name)).toEqual(expect.arrayContaining(gated));
}

describe('the inspector CLI through the gateway command (stdio)', { timeout: 60_000 }, () => {
  test('lists the tools server-everything lists to it directly', async () => {
    expectSameTools(await inspect(gatewayCommand, listTools));
  });

  test('calls echo and gets its answer', async () => {
    const result = await inspect(gatewayCommand, echo);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: through' }] });
  });
});

describe('the inspector CLI through the gateway HTTP endpoint', { timeout: 60_000 }, () => {
  let gateway: Gateway;
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    gateway = await createGateway({
      upstream: { command: everything[0]!, args: everything.slice(1) },
      log: () => undefined,
    });
    endpoint = await serveHttp(gateway);
  });
  afterAll(async () => {
    await endpoint.close();
    await gateway.close();
  });

  test('lists the tools server-everything lists to it directly', async () => {
    expectSameTools(await inspect([endpoint.url], [...listTools, '--transport', 'http']));
  });

  test('calls echo and gets its answer', async () => {
    const result = await inspect([endpoint.url], [...echo, '--transport', 'http']);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: through' }] });
  });
});
