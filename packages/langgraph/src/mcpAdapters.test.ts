/**
 * What LangGraph's own MCP support, `@langchain/mcp-adapters` (1.x), does with the same fixture
 * server the adapter's tests use: the left column of the README's comparison table. Each test
 * calls the server's tools from a node of a real StateGraph, as a LangGraph host would.
 */
import { Annotation, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
} from '../../mcp-bridge/src/__fixtures__/dualEraServer';

let server: DualEraHttpServer;
let client: MultiServerMCPClient;
beforeAll(async () => {
  server = await startDualEraHttpServer();
  client = new MultiServerMCPClient({
    mcpServers: { fixture: { transport: 'http', url: server.url } },
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

const State = Annotation.Root({
  tool: Annotation<string>,
  args: Annotation<Record<string, unknown> | undefined>,
  outcome: Annotation<string | undefined>,
});

/** A graph whose one node invokes the mcp-adapters tool named in the state; the outcome as text. */
async function run(tool: string, args: Record<string, unknown> = {}) {
  const tools = await client.getTools();
  const graph = new StateGraph(State)
    .addNode('call', async (state) => {
      const found = tools.find((candidate) => candidate.name === state.tool);
      if (found === undefined) throw new Error(`no tool ${state.tool}`);
      try {
        return { outcome: `result: ${JSON.stringify(await found.invoke(state.args ?? {}))}` };
      } catch (error) {
        return { outcome: `error: ${(error as Error).message}` };
      }
    })
    .addEdge(START, 'call')
    .addEdge('call', END)
    .compile({ checkpointer: new MemorySaver() });
  const result = await graph.invoke(
    { tool, args },
    { configurable: { thread_id: `adapters-${tool}` } },
  );
  return { result, outcome: result.outcome as string };
}

/** The eras the fixture saw mcp-adapters' messages in. */
const erasSeen = () => new Set(server.received.map((item) => item.era));

describe('@langchain/mcp-adapters with a server that asks', () => {
  it('speaks the legacy era only (it sends initialize, never sees an input_required round)', async () => {
    await client.getTools();
    expect(erasSeen()).toEqual(new Set(['legacy']));
    expect(server.received.some((item) => item.message.method === 'initialize')).toBe(true);
  });

  it('a form question: declares no elicitation, so the server cannot ask; the tool call fails', async () => {
    const { result, outcome } = await run('ask_form');
    // The server's SDK refuses to push a question the client did not declare: an isError result,
    // which mcp-adapters throws as a ToolException.
    expect(outcome).toMatch(/^error: MCP tool 'ask_form' .*returned an error/);
    expect(outcome).toContain(
      "Cannot request input 'profile' (elicitation/create): the client on this 2025-era connection did not declare the required capability",
    );
    // No interrupt: nobody is asked.
    expect((result as Record<string, unknown>).__interrupt__).toBeUndefined();
  });

  it('a URL question: fails the same way; nobody is asked', async () => {
    const { result, outcome } = await run('ask_url');
    expect(outcome).toContain("Cannot request input 'login' (elicitation/create)");
    expect((result as Record<string, unknown>).__interrupt__).toBeUndefined();
  });

  it('a round of three questions: fails at the first; nobody is asked', async () => {
    const { result, outcome } = await run('fan_out', { count: 3 });
    expect(outcome).toContain("Cannot request input 'q1' (elicitation/create)");
    expect((result as Record<string, unknown>).__interrupt__).toBeUndefined();
  });

  it('sampling and roots: refused (it cannot declare them)', async () => {
    expect((await run('ask_sampling')).outcome).toContain(
      "Cannot request input 'llm' (sampling/createMessage)",
    );
    expect((await run('ask_roots')).outcome).toContain("Cannot request input 'roots' (roots/list)");
  });
});
