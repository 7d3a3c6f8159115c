/**
 * The waitfor client under the official MCP conformance suite (`@modelcontextprotocol/conformance`).
 * Invoked as `<command> <serverUrl>` with `MCP_CONFORMANCE_SCENARIO` and
 * `MCP_CONFORMANCE_PROTOCOL_VERSION` in the environment; exits 0 when the scenario's client side
 * ran to the end. Everything goes through the bridge (`connect`, its `callTool`, its `waitFor`
 * wiring) — the suite then judges what reached the wire.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import type { Connection } from '../index';
import { connect } from '../index';

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
    default:
      throw new Error(`unknown scenario "${scenario}"`);
  }
}

async function main(): Promise<void> {
  let interject: Interject = async () => {};
  const waitFor = createWaitFor((request) => interject(request));
  const connection = await connect(
    { url: serverUrl },
    {
      waitFor,
      name: 'waitfor-conformance-client',
      era: protocolVersion === '2026-07-28' ? 'modern' : 'legacy',
    },
  );
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
