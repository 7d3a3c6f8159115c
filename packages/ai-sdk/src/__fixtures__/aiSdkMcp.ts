/**
 * The AI SDK's own MCP client (`@ai-sdk/mcp`: 1.x under ai 6, 2.x under vitest.ai7.config.ts) on
 * the dual-era fixture, through generateText and the scripted model: what both comparison tests
 * of the README's table run. `useAiSdkMcp(name)` registers the fixture server and closes each
 * test's clients after it.
 */
import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp';
import { generateText, stepCountIs } from 'ai';
import { afterEach } from 'vitest';
import { useDualEraServer } from '../../../mcp-bridge/src/__fixtures__/clients';
import type { DualEraHttpServer } from '../../../mcp-bridge/src/__fixtures__/dualEraServer';
import { scriptedModel, type ScriptedCall } from './model';

type Client = Awaited<ReturnType<typeof createMCPClient>>;
/** What `onElicitationRequest` takes. */
export type Handler = Parameters<Client['onElicitationRequest']>[1];
/** A step's content parts. */
export type Content = Awaited<ReturnType<typeof generateText>>['content'];

/** What `useAiSdkMcp` gives a test file. */
export interface AiSdkMcpHarness {
  server: DualEraHttpServer;
  run(calls: ScriptedCall[], handler: Handler, capabilities?: object): Promise<Content>;
}

/** A handler that fails the test's call if @ai-sdk/mcp ever asks it. */
export const never: Handler = async () => {
  throw new Error('the handler was called');
};

/** The tool results of a step. */
export const outputsOf = (content: Content): unknown[] =>
  content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []));

/** The fixture server and a `run` of the model's `calls` with @ai-sdk/mcp's tools. */
export function useAiSdkMcp(name: string): AiSdkMcpHarness {
  const server = useDualEraServer();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  /** A generateText run with @ai-sdk/mcp's tools, its elicitation handler set to `handler`. */
  async function run(calls: ScriptedCall[], handler: Handler, capabilities: object = {}) {
    const client = await createMCPClient({
      name,
      transport: { type: 'http', url: server.url },
      capabilities: { elicitation: {}, ...capabilities },
    });
    clients.push(client);
    client.onElicitationRequest(ElicitationRequestSchema, handler);
    const result = await generateText({
      model: scriptedModel(calls),
      tools: await client.tools(),
      prompt: 'go',
      stopWhen: stepCountIs(2),
    });
    return result.steps[0]?.content ?? [];
  }
  return { server, run };
}
