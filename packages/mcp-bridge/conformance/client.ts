/**
 * The waitfor client under the official MCP conformance suite (`@modelcontextprotocol/conformance`).
 * Invoked as `<command> <serverUrl>` with `MCP_CONFORMANCE_SCENARIO` and
 * `MCP_CONFORMANCE_PROTOCOL_VERSION` in the environment; exits 0 when the scenario's client side
 * ran to the end. Everything goes through the bridge (`connect` with its transport options and
 * `authProvider`, its call and list methods, its `waitFor` wiring) — the suite then judges what
 * reached the wire. The auth scenarios authorize with the headless provider of ./headlessOAuth.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import type { Connection, HttpTarget } from '../src/index';
import { connect } from '../src/index';
import { headlessOAuth } from './headlessOAuth';

// src compiles without Node types (tsconfig `types: []`), so the CLI reads the slice of `process`
// it needs through a typed cast instead of pulling Node types into the library build.
interface CliProcess {
  argv: string[];
  env: Record<string, string | undefined>;
  exit(code: number): never;
  stderr: { write(text: string): boolean };
}
const cliProcess = (globalThis as unknown as { process: CliProcess }).process;

const scenario = cliProcess.env.MCP_CONFORMANCE_SCENARIO ?? '';
const protocolVersion = cliProcess.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const serverUrl = cliProcess.argv[cliProcess.argv.length - 1] ?? '';
const context = JSON.parse(cliProcess.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
  client_id?: string;
  client_secret?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
};
/** The Client ID Metadata Document URL the suite's CIMD scenario expects. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const log = (line: string): void => {
  cliProcess.stderr.write(`[waitfor-conformance] ${line}\n`);
};

/** A tool the MRTR scenario's waitFor must call while a round of another call is still open. */
type Interject = (request: Request) => Promise<void>;

/**
 * The person of this CLI: accepts every form — with nothing typed in, so the bridge fills the
 * schema defaults — except the MRTR confirmation, which it confirms. URL questions are declined:
 * a CLI under test opens no browser.
 */
function createWaitFor(interject: Interject): WaitFor {
  return async (request) => {
    log(`question ${request.id} (${request.kind}): ${request.prompt}`);
    await interject(request);
    if (request.kind !== 'input') return decline(request);
    const properties = (
      request.data?.schema as { properties?: Record<string, unknown> } | undefined
    )?.properties;
    const answer: Answer =
      properties?.confirmed !== undefined ? accept(request, { confirmed: true }) : accept(request);
    return answer;
  };
}

const text = (result: unknown): string =>
  JSON.stringify((result as { content?: unknown } | undefined)?.content ?? result);

/** Whether `error` (or a cause of it) is the SDK's UnauthorizedError. */
function isUnauthorized(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    if (cause.constructor.name === 'UnauthorizedError') return true;
    cause = cause.cause;
  }
  return false;
}

let authorizationCallback: (() => Promise<{ get(name: string): string | null }>) | undefined;

/**
 * Run `call`; when the server asks for authorization mid-session (a scope step-up, a new
 * authorization server), finish it as a host would after the person authorized, and call once more.
 */
async function authorized<T>(connection: Connection, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (authorizationCallback === undefined || !isUnauthorized(error)) throw error;
    log('authorizing again mid-session');
    await connection.finishAuth(await authorizationCallback());
    return call();
  }
}

async function runScenario(
  connection: Connection,
  setInterject: (interject: Interject) => void,
): Promise<void> {
  switch (scenario) {
    case 'initialize': {
      const tools = await connection.listTools();
      log(`tools: ${JSON.stringify(tools)}`);
      return;
    }
    case 'tools_call': {
      const result = await connection.callTool({ name: 'add_numbers', arguments: { a: 5, b: 3 } });
      log(`add_numbers: ${text(result)}`);
      return;
    }
    case 'elicitation-sep1034-client-defaults': {
      const result = await connection.callTool({
        name: 'test_client_elicitation_defaults',
        arguments: {},
      });
      if ((result as { isError?: boolean }).isError === true)
        throw new Error(`tool failed: ${text(result)}`);
      log(`defaults: ${text(result)}`);
      return;
    }
    case 'sep-2322-client-request-state': {
      // The unrelated call goes out while the echo-state call waits for its answer, so the suite
      // sees it in parallel with an open round and checks it carries none of that round's state.
      let interjected = false;
      setInterject(async (request) => {
        const origin = request.data?.origin as { tool?: string } | undefined;
        if (origin?.tool !== 'test_mrtr_echo_state' || interjected) return;
        interjected = true;
        log(
          `unrelated: ${text(await connection.callTool({ name: 'test_mrtr_unrelated', arguments: {} }))}`,
        );
      });
      log(
        `echo state: ${text(await connection.callTool({ name: 'test_mrtr_echo_state', arguments: {} }))}`,
      );
      if (!interjected) throw new Error('the echo-state call completed without asking');
      log(
        `no state: ${text(await connection.callTool({ name: 'test_mrtr_no_state', arguments: {} }))}`,
      );
      log(
        `no result type: ${text(await connection.callTool({ name: 'test_mrtr_no_result_type', arguments: {} }))}`,
      );
      return;
    }
    case 'request-metadata': {
      const tools = await connection.listTools();
      log(`tools: ${JSON.stringify(tools)}`);
      return;
    }
    case 'sse-retry': {
      log(
        `reconnection: ${text(await connection.callTool({ name: 'test_reconnection', arguments: {} }))}`,
      );
      return;
    }
    case 'http-standard-headers': {
      // Every method once, on what the mock lists: each POST must carry Mcp-Method (and Mcp-Name).
      const [tool] = (await connection.listTools()).tools;
      if (tool !== undefined) await connection.callTool({ name: tool.name, arguments: {} });
      const [resource] = (await connection.listResources()).resources;
      if (resource !== undefined) await connection.readResource({ uri: resource.uri });
      const [prompt] = (await connection.listPrompts()).prompts;
      if (prompt !== undefined) await connection.getPrompt({ name: prompt.name, arguments: {} });
      return;
    }
    case 'http-custom-headers': {
      log(`tools: ${(await connection.listTools()).tools.map((tool) => tool.name).join(', ')}`);
      for (const call of context.toolCalls ?? []) await connection.callTool(call);
      return;
    }
    case 'http-invalid-tool-headers': {
      // Tools with invalid header annotations must not be listed; call every one that is.
      for (const tool of (await connection.listTools()).tools) {
        await connection
          .callTool({ name: tool.name, arguments: { region: 'us-west1' } })
          .catch((error: unknown) => log(`${tool.name} refused: ${String(error)}`));
      }
      return;
    }
    case 'json-schema-ref-no-deref': {
      log(`tools: ${(await connection.listTools()).tools.map((tool) => tool.name).join(', ')}`);
      return;
    }
    case 'json-schema-2020-12-preservation': {
      // The listed inputSchema goes back verbatim, so the suite can diff what survived.
      const focal = (await connection.listTools()).tools.find(
        (tool) => tool.name === 'json_schema_2020_12_tool',
      );
      if (focal === undefined) throw new Error('json_schema_2020_12_tool is not listed');
      log(
        `echo: ${text(await connection.callTool({ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }))}`,
      );
      return;
    }
    default: {
      if (!scenario.startsWith('auth/')) throw new Error(`unknown scenario "${scenario}"`);
      const tools = await authorized(connection, () => connection.listTools());
      log(`tools: ${tools.tools.map((tool) => tool.name).join(', ')}`);
      const result = await authorized(connection, () =>
        connection.callTool({ name: 'test-tool', arguments: {} }),
      );
      log(`test-tool: ${text(result)}`);
    }
  }
}

/** Mocks that answer no server/discover (the SEP-2243 header scenarios). */
const discoverless = new Set([
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
]);

// src compiles without DOM types: the fetch shim reads the slice of the web globals it needs.
interface Web {
  fetch: NonNullable<HttpTarget['fetch']>;
  Response: { json(body: unknown, init: { status: number }): unknown };
}
const web = globalThis as unknown as Web;

/**
 * The header mocks answer neither server/discover nor a modern initialize, so the modern era is
 * established from a local discover answer (as the SDK's own conformance client does); every other
 * request reaches the mock.
 */
const localDiscover: Web['fetch'] = async (input, init) => {
  const body = typeof init?.body === 'string' ? init.body : '';
  const message = body.includes('"server/discover"')
    ? (JSON.parse(body) as { id?: unknown; method?: string })
    : undefined;
  if (message?.method !== 'server/discover') return web.fetch(input, init);
  return web.Response.json(
    {
      jsonrpc: '2.0',
      id: message.id,
      result: {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'mock', version: '1.0.0' } },
      },
    },
    { status: 200 },
  ) as ReturnType<Web['fetch']> extends Promise<infer R> ? R : never;
};

/** Where and how to connect for this scenario. */
function target(): HttpTarget {
  if (discoverless.has(scenario)) return { url: serverUrl, fetch: localDiscover };
  if (!scenario.startsWith('auth/')) return { url: serverUrl };
  const headless = headlessOAuth({
    redirectUrl: 'http://localhost:3000/callback',
    metadata: { client_name: 'waitfor-conformance-client' },
    clientMetadataUrl: CIMD_URL,
    clientInformation:
      context.client_id === undefined
        ? undefined
        : {
            client_id: context.client_id,
            client_secret: context.client_secret,
            redirect_uris: ['http://localhost:3000/callback'],
          },
  });
  authorizationCallback = headless.authorizationCallback;
  return { url: serverUrl, authProvider: headless.provider, authorizationCallback };
}

async function main(): Promise<void> {
  let interject: Interject = async () => {};
  const waitFor = createWaitFor((request) => interject(request));
  const connection = await connect(target(), {
    waitFor,
    name: 'waitfor-conformance-client',
    era: protocolVersion === '2026-07-28' ? 'modern' : 'legacy',
  });
  log(`connected: era ${connection.era}, server ${connection.serverName}`);
  try {
    await runScenario(connection, (next) => {
      interject = next;
    });
  } finally {
    await connection.close();
  }
}

// Exit explicitly: the suite waits for the process, and a transport's lingering handle must not
// turn a finished run into a timeout.
main().then(
  () => cliProcess.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    cliProcess.exit(1);
  },
);
