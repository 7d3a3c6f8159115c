import type { Answer, Request } from '@waitfor/core';
import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { describe, expect, it } from 'vitest';
import { textOf, useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { startHostileRawServer } from '../../mcp-bridge/src/__fixtures__/hostileRawServer';
import {
  errorTextOf,
  scriptedModel,
  toolOutputsSent,
  type ScriptedCall,
} from './__fixtures__/model';
import { openSource, sourcePaths } from './__fixtures__/sources';
import { AiSdkError, mcpTools } from './index';
import { connect, type AttachOptions } from '@waitfor/mcp-bridge';

const server = useDualEraServer();

const accept = (request: Request, data?: Record<string, unknown>): Answer =>
  data === undefined ? { id: request.id, ok: true } : { id: request.id, ok: true, data };

describe.each(sourcePaths)('through %s (%s client, %s era)', (path, kind, era) => {
  /** One generateText run of a model calling `calls`, with the server's tools through the bridge. */
  async function run(calls: ScriptedCall[], options: AttachOptions, abortSignal?: AbortSignal) {
    const open = await openSource(path, kind, server.url, options);
    try {
      const model = scriptedModel(calls);
      const tools = await mcpTools(open.source);
      const result = await generateText({
        model,
        tools,
        prompt: 'go',
        stopWhen: stepCountIs(2),
        ...(abortSignal === undefined ? {} : { abortSignal }),
      });
      return { result, model };
    } finally {
      await open.close();
    }
  }

  it('a tool whose server asks a form: the question reaches waitFor, the answer reaches the server', async () => {
    const seen: Request[] = [];
    const { result, model } = await run([{ toolName: 'ask_form' }], {
      waitFor: async (request) => {
        seen.push(request);
        return accept(request, { name: 'Ada' });
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'input', prompt: 'Who are you?' });
    expect(seen[0]?.data?.origin).toMatchObject({ era, tool: 'ask_form' });
    const [toolResult] = result.steps[0]?.toolResults ?? [];
    expect(textOf(toolResult?.output)).toBe('accept:{"name":"Ada"}');
    expect(toolOutputsSent(model)).toEqual([
      { type: 'content', value: [{ type: 'text', text: 'accept:{"name":"Ada"}' }] },
    ]);
    expect(result.text).toBe('done');
  });

  it('a tool whose server asks for a URL visit: an authorization Request, answered through waitFor', async () => {
    const seen: Request[] = [];
    const { result } = await run([{ toolName: 'ask_url' }], {
      waitFor: async (request) => {
        seen.push(request);
        return accept(request);
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      kind: 'authorization',
      prompt: 'Sign in to continue',
      url: 'https://example.com/login?flow=1',
    });
    expect(seen[0]?.data?.origin).toMatchObject({ era, tool: 'ask_url' });
    expect(textOf(result.steps[0]?.toolResults[0]?.output)).toBe('accept');
  });

  it('three questions of one round are asked at once: all reach waitFor before any is answered', async () => {
    const seen: Request[] = [];
    const answers: Array<() => void> = [];
    const { result } = await run([{ toolName: 'fan_out', input: { count: 3 } }], {
      waitFor: (request) =>
        new Promise<Answer>((resolve) => {
          seen.push(request);
          answers.push(() => resolve(accept(request, { value: request.prompt })));
          // Nobody is answered until the third question is open.
          if (answers.length === 3) for (const answer of answers) answer();
        }),
    });
    expect(seen.map((request) => request.prompt).sort()).toEqual([
      'Question q1',
      'Question q2',
      'Question q3',
    ]);
    expect(textOf(result.steps[0]?.toolResults[0]?.output)).toBe(
      'q1=accept:{"value":"Question q1"} q2=accept:{"value":"Question q2"} q3=accept:{"value":"Question q3"}',
    );
  });

  it("the model's abort signal ends the open question and the call", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const open = await openSource(path, kind, server.url, {
      waitFor: (_request, context) =>
        new Promise<Answer>((_resolve, reject) => {
          const signal = context?.signal as AbortSignal;
          signals.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
          controller.abort(new Error('the user pressed stop'));
        }),
    });
    try {
      // One step: the run ends with the tool's outcome (a further step would refuse to start).
      const result = await generateText({
        model: scriptedModel([{ toolName: 'ask_form' }]),
        tools: await mcpTools(open.source),
        prompt: 'go',
        abortSignal: controller.signal,
      });
      expect(signals).toHaveLength(1);
      expect(signals[0]?.aborted).toBe(true);
      const [part] = (result.steps[0]?.content ?? []).filter((item) => item.type === 'tool-error');
      expect((part as { error?: unknown } | undefined)?.error).toMatchObject({
        name: 'BridgeError',
        code: 'aborted',
      });
      expect(open.openRequests()).toEqual([]);
    } finally {
      await open.close();
    }
  });

  it('structured content is kept in the tool result; the model sees its content', async () => {
    const { result, model } = await run([{ toolName: 'structured' }], {
      waitFor: async (request) => accept(request, { value: 21 }),
    });
    const output = result.steps[0]?.toolResults[0]?.output as Record<string, unknown>;
    expect(output.structuredContent).toEqual({ doubled: 42 });
    expect(toolOutputsSent(model)).toEqual([
      { type: 'content', value: [{ type: 'text', text: 'doubled=42' }] },
    ]);
  });

  it('an isError result is a tool error: the model sees its text, the host keeps the result', async () => {
    const { result, model } = await run([{ toolName: 'slow', input: { ms: 'soon' } }], {
      waitFor: async (request) => accept(request),
    });
    const [part] = (result.steps[0]?.content ?? []).filter((item) => item.type === 'tool-error');
    expect(part?.type).toBe('tool-error');
    const error = (part as { error: unknown }).error;
    expect(AiSdkError.isInstance(error)).toBe(true);
    expect((error as AiSdkError).code).toBe('tool_error');
    expect((error as AiSdkError).result?.isError).toBe(true);
    expect((error as AiSdkError).message).toContain('Input validation error');
    expect(toolOutputsSent(model)).toEqual([
      { type: 'error-text', value: errorTextOf(error as AiSdkError) },
    ]);
  });

  it("sampling and roots go to the bridge's handlers", async () => {
    const { result } = await run([{ toolName: 'ask_roots' }, { toolName: 'ask_sampling' }], {
      waitFor: async (request) => accept(request),
      roots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
      sampling: async () => ({
        model: 'host-model',
        role: 'assistant',
        content: { type: 'text', text: 'hi' },
      }),
    });
    const texts = (result.steps[0]?.toolResults ?? []).map((item) => textOf(item.output));
    expect(texts.sort()).toEqual(['file:///work', 'model=host-model']);
  });
});

describe('tool definitions', () => {
  it.each(sourcePaths)(
    'through %s (%s client, %s era): the model is sent every tool with its input schema as the server lists it',
    async (path, kind) => {
      const open = await openSource(path, kind, server.url, {
        waitFor: async (request) => accept(request),
      });
      try {
        const listed = (await open.source.listTools()) as {
          tools: Array<{ name: string; description?: string; inputSchema: unknown }>;
        };
        const model = scriptedModel([]);
        await generateText({ model, tools: await mcpTools(open.source), prompt: 'go' });
        const sent = model.doGenerateCalls[0]?.tools ?? [];
        expect(sent.map((item) => item.name)).toEqual(listed.tools.map((item) => item.name));
        for (const definition of listed.tools) {
          const item = sent.find((candidate) => candidate.name === definition.name);
          expect(item).toMatchObject({ type: 'function', description: definition.description });
          expect((item as { inputSchema?: unknown }).inputSchema).toEqual(definition.inputSchema);
        }
        expect(sent.find((item) => item.name === 'fan_out')).toMatchObject({
          inputSchema: {
            type: 'object',
            properties: { count: { type: 'integer', minimum: 1, maximum: 20 } },
          },
        });
      } finally {
        await open.close();
      }
    },
  );

  it('include picks tools by name; metadata names the server and the tool', async () => {
    const open = await openSource('connect', 'v2-modern', server.url, {
      waitFor: async (request) => accept(request),
    });
    try {
      const tools = await mcpTools(open.source, { include: ['ask_form', 'structured'] });
      expect(Object.keys(tools).sort()).toEqual(['ask_form', 'structured']);
      expect(tools.ask_form).toMatchObject({
        type: 'dynamic',
        description: 'Asks a form',
        metadata: { server: 'dual-era-fixture', tool: 'ask_form' },
      });
    } finally {
      await open.close();
    }
  });

  it('a bad maxTools is refused before anything is listed', async () => {
    const open = await openSource('connect', 'v2-modern', server.url, {
      waitFor: async (request) => accept(request),
    });
    try {
      await expect(mcpTools(open.source, { maxTools: 0 })).rejects.toMatchObject({
        code: 'invalid_options',
      });
      await expect(mcpTools(open.source, { maxTools: 3 })).rejects.toMatchObject({
        name: 'AiSdkError',
        code: 'invalid_tools',
      });
    } finally {
      await open.close();
    }
  });
});

describe('beyond generateText', () => {
  it.each(sourcePaths)(
    'streamText through %s (%s client, %s era): the question reaches waitFor, the result streams back',
    async (path, kind, era) => {
      const seen: Request[] = [];
      const open = await openSource(path, kind, server.url, {
        waitFor: async (request) => {
          seen.push(request);
          return accept(request, { name: 'Ada' });
        },
      });
      try {
        const stream = streamText({
          model: scriptedModel([{ toolName: 'ask_form' }]),
          tools: await mcpTools(open.source),
          prompt: 'go',
          stopWhen: stepCountIs(2),
        });
        const results: unknown[] = [];
        for await (const part of stream.fullStream)
          if (part.type === 'tool-result') results.push(part.output);
        expect(results.map(textOf)).toEqual(['accept:{"name":"Ada"}']);
        expect(await stream.text).toBe('done');
        expect(seen[0]?.data?.origin).toMatchObject({ era, tool: 'ask_form' });
      } finally {
        await open.close();
      }
    },
  );

  it('a ToolLoopAgent runs the same tools', async () => {
    const open = await openSource('connect', 'v2-modern', server.url, {
      waitFor: async (request) => accept(request, { name: 'Ada' }),
    });
    try {
      const agent = new ToolLoopAgent({
        model: scriptedModel([{ toolName: 'ask_form' }]),
        tools: await mcpTools(open.source),
      });
      const result = await agent.generate({ prompt: 'go' });
      expect(textOf(result.steps[0]?.toolResults[0]?.output)).toBe('accept:{"name":"Ada"}');
      expect(result.text).toBe('done');
    } finally {
      await open.close();
    }
  });

  it("a server's input schema without properties reaches the model with properties: {} added", async () => {
    const hostile = await startHostileRawServer();
    const connection = await connect(
      { url: hostile.url },
      { waitFor: async (request) => accept(request), era: 'modern' },
    );
    try {
      const listed = (await connection.listTools()).tools;
      expect(listed[0]?.inputSchema).toEqual({ type: 'object' });
      const model = scriptedModel([]);
      await generateText({ model, tools: await mcpTools(connection), prompt: 'go' });
      const sent = model.doGenerateCalls[0]?.tools ?? [];
      expect(sent).toHaveLength(listed.length);
      for (const item of sent)
        expect((item as { inputSchema?: unknown }).inputSchema).toEqual({
          type: 'object',
          properties: {},
        });
    } finally {
      await connection.close();
      await hostile.close();
    }
  });
});
