import type { Answer, Request, WaitFor } from '@waitfor/core';
import { Command, MemorySaver } from '@langchain/langgraph';
import { connect, type CallOptions, type Connection, type ToolParams } from '@waitfor/mcp-bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { toolCalls, toolGraph } from './__fixtures__/graph';
import { onlyInterrupt, threadConfig } from './__fixtures__/interrupts';
import { waitforInterrupts, type InterruptSource } from './index';

const server = useDualEraServer();

const accept = (request: Request, data?: Record<string, unknown>): Answer =>
  data === undefined ? { id: request.id, ok: true } : { id: request.id, ok: true, data };

const open: Connection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connectTo(era: 'legacy' | 'modern', waitFor: WaitFor = neverAsked) {
  const connection = await connect({ url: server.url }, { waitFor, era });
  open.push(connection);
  return connection;
}

async function neverAsked(): Promise<Answer> {
  throw new Error('a modern-era question must interrupt the run, not reach waitFor');
}

/**
 * The connection as the graph's source, recording how each of its callTool calls ended: the run's
 * own promise rejects with the abort reason whatever the node does, so the call is watched here.
 */
function recorded(connection: Connection) {
  const outcomes: Array<Promise<{ code: string }>> = [];
  const source: InterruptSource = {
    era: connection.era,
    serverName: connection.serverName,
    resume: (...args) => connection.resume(...args),
    callTool: ((params: ToolParams, options?: CallOptions) => {
      const call = connection.callTool(params, options);
      outcomes.push(
        call.then(
          () => ({ code: 'completed' }),
          (error: unknown) => ({ code: String((error as { code?: unknown }).code) }),
        ),
      );
      return call;
    }) as InterruptSource['callTool'],
  };
  return { source, outcomes };
}

describe('modern era: a question interrupts the run, Command({ resume }) answers it', () => {
  it('a form question: the run interrupts with its Request, the resume completes the call once', async () => {
    const start = server.received.length;
    const { graph, counter } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const first = await graph.invoke({ tool: 'ask_form' }, config);
    const value = onlyInterrupt(first);
    expect(value).toMatchObject({ type: 'waitfor', server: 'dual-era-fixture', tool: 'ask_form' });
    expect(value.requests).toHaveLength(1);
    expect(value.requests[0]).toMatchObject({ kind: 'input', prompt: 'Who are you?' });
    expect(value.requests[0]?.data?.origin).toMatchObject({ era: 'modern', tool: 'ask_form' });
    expect(value.suspension).toMatchObject({ version: 2, method: 'tools/call' });
    expect(first.text).toBeUndefined();

    const done = await graph.invoke(
      new Command({ resume: accept(value.requests[0]!, { name: 'Ada' }) }),
      config,
    );
    expect(done.text).toBe('accept:{"name":"Ada"}');
    expect(waitforInterrupts(done)).toEqual([]);
    // The node ran twice (it starts again on resume), the tool was called once and answered once.
    expect(counter.runs).toBe(2);
    expect(toolCalls(server.received.slice(start), 'ask_form')).toEqual({ legs: 2, answered: 1 });
  });

  it('a URL question: an authorization Request in the interrupt', async () => {
    const { graph } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const value = onlyInterrupt(await graph.invoke({ tool: 'ask_url' }, config));
    expect(value.requests).toEqual([
      expect.objectContaining({
        kind: 'authorization',
        prompt: 'Sign in to continue',
        url: 'https://example.com/login?flow=1',
      }),
    ]);
    const done = await graph.invoke(new Command({ resume: [accept(value.requests[0]!)] }), config);
    expect(done.text).toBe('accept');
  });

  it('three questions of one round are ONE interrupt holding all three', async () => {
    const { graph } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const first = await graph.invoke({ tool: 'fan_out', args: { count: 3 } }, config);
    const value = onlyInterrupt(first);
    expect(value.requests.map((request) => request.prompt).sort()).toEqual([
      'Question q1',
      'Question q2',
      'Question q3',
    ]);
    const answers = value.requests.map((request) => accept(request, { value: request.prompt }));
    const done = await graph.invoke(new Command({ resume: answers.reverse() }), config);
    expect(done.text).toBe(
      'q1=accept:{"value":"Question q1"} q2=accept:{"value":"Question q2"} q3=accept:{"value":"Question q3"}',
    );
  });

  it('two rounds: one interrupt each, and no leg is sent twice', async () => {
    const start = server.received.length;
    const { graph, counter } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const first = onlyInterrupt(await graph.invoke({ tool: 'two_rounds' }, config));
    expect(first.requests[0]?.prompt).toBe('Which city?');
    const secondRun = await graph.invoke(
      new Command({ resume: accept(first.requests[0]!, { city: 'Lisbon' }) }),
      config,
    );
    const second = onlyInterrupt(secondRun);
    expect(second.requests[0]?.prompt).toBe('Confirm Lisbon?');
    const done = await graph.invoke(
      new Command({ resume: accept(second.requests[0]!, { confirm: true }) }),
      config,
    );
    expect(done.text).toBe('city=Lisbon confirm=true');
    expect(counter.runs).toBe(3);
    expect(toolCalls(server.received.slice(start), 'two_rounds')).toEqual({ legs: 3, answered: 2 });
  });

  it('a resume that is not one Answer per Request is not sent: the round is asked again, then completes once', async () => {
    const start = server.received.length;
    const { graph } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const value = onlyInterrupt(
      await graph.invoke({ tool: 'fan_out', args: { count: 2 } }, config),
    );
    const [q1, q2] = value.requests;
    const again = onlyInterrupt(
      await graph.invoke(new Command({ resume: [accept(q1!, { value: 'one' })] }), config),
    );
    expect(again.refused).toMatchObject({ code: 'answer_mismatch' });
    expect(again.requests).toEqual(value.requests);
    expect(toolCalls(server.received.slice(start), 'fan_out')).toEqual({ legs: 1, answered: 0 });
    const foreign = onlyInterrupt(
      await graph.invoke(new Command({ resume: [accept(q1!), { id: 'nope', ok: true }] }), config),
    );
    expect(foreign.refused).toMatchObject({ code: 'answer_mismatch' });
    const done = await graph.invoke(
      new Command({ resume: [accept(q2!, { value: 'two' }), accept(q1!, { value: 'one' })] }),
      config,
    );
    expect(done.text).toBe('q1=accept:{"value":"one"} q2=accept:{"value":"two"}');
    expect(toolCalls(server.received.slice(start), 'fan_out')).toEqual({ legs: 2, answered: 1 });
  });

  it('an accepted form that fails its schema is not sent: asked again with the field errors', async () => {
    const start = server.received.length;
    const { graph } = toolGraph(await connectTo('modern'), new MemorySaver());
    const config = threadConfig();
    const [request] = onlyInterrupt(await graph.invoke({ tool: 'ask_form' }, config)).requests;
    const again = onlyInterrupt(
      await graph.invoke(new Command({ resume: accept(request!, { age: 200 }) }), config),
    );
    expect(again.refused?.code).toBe('invalid_answer');
    expect(Object.keys(again.refused?.errors ?? {}).sort()).toEqual(['age', 'name']);
    expect(toolCalls(server.received.slice(start), 'ask_form')).toEqual({ legs: 1, answered: 0 });
    const done = await graph.invoke(
      new Command({ resume: accept(request!, { name: 'Ada', age: 36 }) }),
      config,
    );
    expect(done.text).toBe('accept:{"name":"Ada","age":36}');
    expect(toolCalls(server.received.slice(start), 'ask_form')).toEqual({ legs: 2, answered: 1 });
  });
});

describe("sampling and roots go to the bridge's handlers, in both eras", () => {
  it.each(['modern', 'legacy'] as const)(
    '%s era: no interrupt, the handlers answer',
    async (era) => {
      const connection = await connect(
        { url: server.url },
        {
          era,
          waitFor: neverAsked,
          roots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
          sampling: async () => ({
            model: 'host-model',
            role: 'assistant',
            content: { type: 'text', text: 'hi' },
          }),
        },
      );
      open.push(connection);
      const { graph } = toolGraph(connection, new MemorySaver());
      const roots = await graph.invoke({ tool: 'ask_roots' }, threadConfig());
      expect(waitforInterrupts(roots)).toEqual([]);
      expect(roots.text).toBe('file:///work');
      const sampling = await graph.invoke({ tool: 'ask_sampling' }, threadConfig());
      expect(sampling.text).toBe('model=host-model');
    },
  );
});

describe('legacy era: a pushed question is answered inline through waitFor', () => {
  it('a form question reaches waitFor; the run completes without an interrupt', async () => {
    const seen: Request[] = [];
    const connection = await connectTo('legacy', async (request) => {
      seen.push(request);
      return accept(request, { name: 'Ada' });
    });
    const { graph } = toolGraph(connection, new MemorySaver());
    const done = await graph.invoke({ tool: 'ask_form' }, threadConfig());
    expect(waitforInterrupts(done)).toEqual([]);
    expect(done.text).toBe('accept:{"name":"Ada"}');
    expect(seen).toEqual([expect.objectContaining({ kind: 'input', prompt: 'Who are you?' })]);
    expect(seen[0]?.data?.origin).toMatchObject({ era: 'legacy', tool: 'ask_form' });
  });

  it('a URL question reaches waitFor as an authorization Request', async () => {
    const seen: Request[] = [];
    const connection = await connectTo('legacy', async (request) => {
      seen.push(request);
      return accept(request);
    });
    const { graph } = toolGraph(connection, new MemorySaver());
    const done = await graph.invoke({ tool: 'ask_url' }, threadConfig());
    expect(done.text).toBe('accept');
    expect(seen).toEqual([
      expect.objectContaining({ kind: 'authorization', url: 'https://example.com/login?flow=1' }),
    ]);
  });

  it('three pushed questions of one round reach waitFor at once', async () => {
    const answers: Array<() => void> = [];
    const connection = await connectTo(
      'legacy',
      (request) =>
        new Promise<Answer>((resolve) => {
          answers.push(() => resolve(accept(request, { value: request.prompt })));
          // Nobody is answered until the third question is open.
          if (answers.length === 3) for (const answer of answers) answer();
        }),
    );
    const { graph } = toolGraph(connection, new MemorySaver());
    const done = await graph.invoke({ tool: 'fan_out', args: { count: 3 } }, threadConfig());
    expect(done.text).toBe(
      'q1=accept:{"value":"Question q1"} q2=accept:{"value":"Question q2"} q3=accept:{"value":"Question q3"}',
    );
  });

  it('the call’s own waitFor (options.waitFor) answers instead of the bridge’s', async () => {
    const seen: Request[] = [];
    const { graph } = toolGraph(await connectTo('legacy'), new MemorySaver(), {
      waitFor: async (request) => {
        seen.push(request);
        return accept(request, { name: 'Grace' });
      },
    });
    const done = await graph.invoke({ tool: 'ask_form' }, threadConfig());
    expect(done.text).toBe('accept:{"name":"Grace"}');
    expect(seen).toHaveLength(1);
  });
});

describe("the run's abort signal", () => {
  it('legacy era: ends the open question (its waitFor signal aborts) and the run', async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const connection = await connectTo(
      'legacy',
      (_request, context) =>
        new Promise<Answer>((_resolve, reject) => {
          const signal = context?.signal as AbortSignal;
          signals.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort(new Error('the user pressed stop'));
        }),
    );
    const { source, outcomes } = recorded(connection);
    const { graph } = toolGraph(source, new MemorySaver());
    const error = await graph
      .invoke({ tool: 'ask_form' }, { ...threadConfig(), signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBe(controller.signal.reason);
    // The abort reached the question at once (checked before waiting for the call to end).
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(await Promise.all(outcomes)).toEqual([{ code: 'aborted' }]);
    expect(connection.attachment.openRequests()).toEqual([]);
  });

  it('modern era: ends the MCP call in flight with the bridge’s aborted; nothing is interrupted', async () => {
    const controller = new AbortController();
    const { source, outcomes } = recorded(await connectTo('modern'));
    const { graph } = toolGraph(source, new MemorySaver(), {
      call: { onprogress: () => controller.abort(new Error('the user pressed stop')) },
    });
    const error = await graph
      .invoke(
        { tool: 'progress', args: { steps: 50, ms: 100 } },
        { ...threadConfig(), signal: controller.signal },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBe(controller.signal.reason);
    expect(await Promise.all(outcomes)).toEqual([{ code: 'aborted' }]);
  });
});
