/**
 * connect's results carry the SDK's own types (type-only imports), and its list methods read one
 * page at a time: prompts/list and resources/list beside tools/list, a `cursor` sent as given.
 */
import type {
  CallToolResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListToolsResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import { accept } from '@waitfor/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { useDualEraServer } from '../__fixtures__/clients';
import { connect } from '../index';

const server = useDualEraServer();

describe.each(['legacy', 'modern'] as const)('typed results and lists (%s era)', (era) => {
  it('returns the SDK result types and lists prompts and resources', async () => {
    const connection = await connect(
      { url: server.url },
      {
        era,
        // The prompt asks a topic, the resource a word, the tool a name.
        waitFor: async (request) => {
          const schema = JSON.stringify(request.data?.schema);
          if (schema.includes('"topic"')) return accept(request, { topic: 'tea' });
          if (schema.includes('"word"')) return accept(request, { word: 'moon' });
          return accept(request, { name: 'Kim' });
        },
      },
    );
    try {
      const tool = await connection.callTool({ name: 'ask_form' });
      expectTypeOf(tool).toEqualTypeOf<CallToolResult>();
      expect(tool.content[0]).toEqual({ type: 'text', text: 'accept:{"name":"Kim"}' });

      const prompt = await connection.getPrompt({ name: 'ask_prompt' });
      expectTypeOf(prompt).toEqualTypeOf<GetPromptResult>();
      expect(prompt.messages.length).toBeGreaterThan(0);

      const resource = await connection.readResource({ uri: 'waitfor://asked' });
      expectTypeOf(resource).toEqualTypeOf<ReadResourceResult>();
      expect(resource.contents[0]?.uri).toBe('waitfor://asked');

      const tools = await connection.listTools();
      expectTypeOf(tools).toEqualTypeOf<ListToolsResult>();
      expect(tools.tools.map((entry) => entry.name)).toContain('progress');
      const prompts = await connection.listPrompts();
      expectTypeOf(prompts).toEqualTypeOf<ListPromptsResult>();
      expect(prompts.prompts.map((entry) => entry.name)).toEqual(['ask_prompt']);
      const resources = await connection.listResources();
      expectTypeOf(resources).toEqualTypeOf<ListResourcesResult>();
      expect(resources.resources.map((entry) => entry.uri)).toEqual(['waitfor://asked']);
    } finally {
      await connection.close();
    }
  });

  it('sends the cursor it is given, one page per call', async () => {
    const connection = await connect({ url: server.url }, { era, waitFor: async (r) => accept(r) });
    try {
      const cursor = `page-2-${era}`;
      // The fixture does not paginate: what matters is the request on the wire.
      await connection.listPrompts({ cursor }).catch(() => undefined);
      const sent = server.received.find(
        (entry) =>
          entry.message.method === 'prompts/list' && entry.message.params?.['cursor'] === cursor,
      );
      expect(sent).toBeDefined();
    } finally {
      await connection.close();
    }
  });
});
