/**
 * In an agent's graph: an MCP tool as a LangChain tool that a prebuilt ToolNode runs (as
 * createReactAgent and createAgent do). ToolNode lets the interrupt through, so the tool call's
 * question interrupts the run and the resume finishes the tool call.
 */
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import {
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { connect } from '@waitfor/mcp-bridge';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { toolCalls } from './__fixtures__/graph';
import { callToolWithInterrupt, waitforInterrupts } from './index';

const server = useDualEraServer();
let connection: Awaited<ReturnType<typeof connect>>;
beforeAll(async () => {
  connection = await connect(
    { url: server.url },
    {
      era: 'modern',
      waitFor: async () => {
        throw new Error('modern-era questions interrupt the run');
      },
    },
  );
});
afterAll(async () => {
  await connection.close();
});

it('a ToolNode running an MCP tool: its round interrupts the run, the resume ends as a ToolMessage', async () => {
  const listed = await connection.listTools();
  const definition = listed.tools.find((item) => item.name === 'fan_out')!;
  const fanOut = tool(
    async (args, config) => {
      const result = await callToolWithInterrupt(
        connection,
        { name: 'fan_out', arguments: args as Record<string, unknown> },
        { config },
      );
      return (result.content as Array<{ text: string }>)[0]!.text;
    },
    {
      name: definition.name,
      description: definition.description ?? '',
      schema: definition.inputSchema as Record<string, unknown>,
    },
  );
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('tools', new ToolNode([fanOut]))
    .addEdge(START, 'tools')
    .addEdge('tools', END)
    .compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: 'tool-node' } };
  const call = new AIMessage({
    content: '',
    tool_calls: [{ id: 'call-1', name: 'fan_out', args: { count: 2 } }],
  });
  const start = server.received.length;
  const first = await graph.invoke({ messages: [call] }, config);
  const [pending] = waitforInterrupts(first);
  expect(pending?.value.requests.map((request) => request.prompt).sort()).toEqual([
    'Question q1',
    'Question q2',
  ]);
  const answers = pending!.value.requests.map((request) => ({
    id: request.id,
    ok: true,
    data: { value: request.prompt.slice(-2) },
  }));
  const done = await graph.invoke(new Command({ resume: answers }), config);
  const last = done.messages.at(-1) as BaseMessage;
  expect(last.getType()).toBe('tool');
  expect(last.content).toBe('q1=accept:{"value":"q1"} q2=accept:{"value":"q2"}');
  // The ToolNode ran the tool again on resume: its first leg was read back, not sent again.
  expect(toolCalls(server.received.slice(start), 'fan_out')).toEqual({ legs: 2, answered: 1 });
});
