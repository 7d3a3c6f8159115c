import { isWaitforError, type Answer } from '@waitfor/core';
import { Annotation, Command, END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { connect, type Bridge, type Connection } from '@waitfor/mcp-bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { openClient, useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import {
  callToolWithInterrupt,
  isLangGraphError,
  LangGraphError,
  mcpToolNode,
  waitforInterrupts,
  type InterruptSource,
} from './index';

const server = useDualEraServer();

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const Trip = Annotation.Root({
  count: Annotation<number>,
  summary: Annotation<string | undefined>,
});

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text?: string }>)[0]?.text ?? '';

/** START → ask (fan_out with the state's count) → END. */
function tripGraph(source: InterruptSource) {
  return new StateGraph(Trip)
    .addNode(
      'ask',
      mcpToolNode(source, 'fan_out', {
        args: (state: typeof Trip.State) => ({ count: state.count }),
        update: (result) => ({ summary: textOf(result) }),
      }),
    )
    .addEdge(START, 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: new MemorySaver() });
}

const refuse = async (): Promise<Answer> => {
  throw new Error('modern-era questions interrupt the run');
};

describe('mcpToolNode', () => {
  it("through connect's Connection: a node that interrupts with the round and completes on resume", async () => {
    const connection: Connection = await connect(
      { url: server.url },
      { waitFor: refuse, era: 'modern' },
    );
    closers.push(() => connection.close());
    const graph = tripGraph(connection);
    const config = { configurable: { thread_id: 'node-connect' } };
    const [pending] = waitforInterrupts(await graph.invoke({ count: 2 }, config));
    expect(pending?.value.requests).toHaveLength(2);
    const answers = pending!.value.requests.map((request) => ({
      id: request.id,
      ok: true,
      data: { value: request.prompt },
    }));
    const done = await graph.invoke(new Command({ resume: answers }), config);
    expect(done.summary).toBe(
      'q1=accept:{"value":"Question q1"} q2=accept:{"value":"Question q2"}',
    );
  });

  it("through attachWaitFor's Bridge on a client the host built: the same", async () => {
    const { attachment, close } = await openClient(
      'v2-modern',
      'http',
      { url: server.url },
      {
        waitFor: refuse,
      },
    );
    closers.push(close);
    // attachWaitFor returns the Bridge; the harness types it as its Attachment.
    const graph = tripGraph(attachment as unknown as Bridge);
    const config = { configurable: { thread_id: 'node-bridge' } };
    const [pending] = waitforInterrupts(await graph.invoke({ count: 1 }, config));
    expect(pending?.value.requests.map((request) => request.prompt)).toEqual(['Question q1']);
    const done = await graph.invoke(
      new Command({
        resume: { id: pending!.value.requests[0]!.id, ok: false, reason: 'declined' },
      }),
      config,
    );
    expect(done.summary).toBe('q1=decline');
  });

  it('callToolWithInterrupt refuses durable options, and a modern-era call outside a graph', async () => {
    const connection = await connect({ url: server.url }, { waitFor: refuse, era: 'modern' });
    closers.push(() => connection.close());
    const durable = callToolWithInterrupt(
      connection,
      { name: 'ask_form' },
      { call: { durable: true } as never },
    );
    await expect(durable).rejects.toMatchObject({
      name: 'LangGraphError',
      code: 'invalid_options',
    });
    const outside = callToolWithInterrupt(connection, { name: 'ask_form' });
    await expect(outside).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('inside a LangGraph node'),
    });
  });

  it('refuses a missing tool name or update with invalid_options', () => {
    const source = {} as InterruptSource;
    const missingName = () => mcpToolNode(source, '', { update: () => ({}) });
    expect(missingName).toThrow(LangGraphError);
    const error = (() => {
      try {
        return missingName();
      } catch (caught) {
        return caught;
      }
    })();
    expect(isLangGraphError(error) && isWaitforError(error)).toBe(true);
    expect((error as LangGraphError).code).toBe('invalid_options');
    expect(() => mcpToolNode(source, 'x', {} as never)).toThrow(/options.update/);
  });
});
