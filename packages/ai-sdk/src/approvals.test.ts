/**
 * The AI SDK's own approval step (`needsApproval`, `tool-approval-request` parts, the
 * `tool-approval-response` of the next call) through waitfor: `mcpTools(…, { approve })` marks
 * tools, `askApprovals` asks each approval as a Request through the host's waitFor — the same inbox
 * that the MCP server's questions reach — and the AI SDK runs or denies the calls as answered.
 */
import type { Answer, Request } from '@waitfor/core';
import { createInbox } from '@waitfor/core';
import type { ModelMessage } from 'ai';
import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { scriptedModel, toolOutputsSent, type ScriptedCall } from './__fixtures__/model';
import { openSource, sourcePaths } from './__fixtures__/sources';
import { askApprovals, mcpTools, type McpToolsOptions } from './index';

const server = useDualEraServer();

const toolCalls = (name: string) =>
  server.received.filter(
    (entry) =>
      entry.message.method === 'tools/call' &&
      (entry.message.params as { name?: string } | undefined)?.name === name,
  ).length;

describe.each(sourcePaths)('through %s (%s client, %s era)', (path, kind, era) => {
  /**
   * One conversation turn with approvals: generateText stops at the approval requests, they are
   * asked through the inbox, and a second generateText runs (or denies) the calls.
   */
  async function turn(
    calls: ScriptedCall[],
    person: (request: Request) => Answer,
    options: McpToolsOptions = { approve: true },
  ) {
    const inbox = createInbox();
    const seen: Request[] = [];
    // The person: answers whatever appears in the one inbox, approvals and forms alike.
    inbox.subscribe(() => {
      for (const request of inbox.getSnapshot())
        if (!seen.includes(request)) {
          seen.push(request);
          queueMicrotask(() => inbox.answer(person(request)));
        }
    });
    const open = await openSource(path, kind, server.url, { waitFor: inbox.waitFor });
    try {
      const model = scriptedModel(calls);
      const tools = await mcpTools(open.source, options);
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const start = calls.map((call) => toolCalls(call.toolName));
      const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(2) });
      // What the first generateText ran: nothing, while its calls wait for approval.
      const before = calls.map((call, index) => toolCalls(call.toolName) - start[index]!);
      messages.push(...first.response.messages);
      const approvals = await askApprovals(first.content, { waitFor: inbox.waitFor, tools });
      if (approvals !== undefined) messages.push(approvals);
      const second =
        approvals === undefined
          ? undefined
          : await generateText({ model, tools, messages, stopWhen: stepCountIs(2) });
      // What the whole turn ran.
      const ran = calls.map((call, index) => toolCalls(call.toolName) - start[index]!);
      return { first, second, model, seen, before, ran, approvals };
    } finally {
      await open.close();
    }
  }

  it('an approved call: the approval and then the server’s form reach the one inbox; the result reaches the model', async () => {
    const { first, second, model, seen, before, ran } = await turn(
      [{ toolName: 'ask_form' }],
      (request) =>
        request.kind === 'approval'
          ? { id: request.id, ok: true }
          : { id: request.id, ok: true, data: { name: 'Ada' } },
    );
    expect(first.finishReason).toBe('tool-calls');
    expect(first.content.map((part) => part.type)).toEqual(['tool-call', 'tool-approval-request']);
    // Nothing ran before the approval.
    expect(before).toEqual([0]);
    expect(seen.map((request) => request.kind)).toEqual(['approval', 'input']);
    expect(seen[0]).toMatchObject({
      kind: 'approval',
      prompt: 'Run ask_form?',
      data: {
        origin: { server: 'dual-era-fixture', tool: 'ask_form', toolCallId: 'call-1' },
        input: {},
      },
    });
    expect(seen[1]?.data?.origin).toMatchObject({ era, tool: 'ask_form' });
    // The approved call ran once, before the model's next step, which got its result (a modern
    // call is two tools/call requests: the first leg, then its retry with the answer).
    expect(ran).toEqual([era === 'modern' ? 2 : 1]);
    expect(toolOutputsSent(model)).toEqual([
      { type: 'content', value: [{ type: 'text', text: 'accept:{"name":"Ada"}' }] },
    ]);
    expect(second?.text).toBe('done');
  });

  it('a declined approval: the tool never runs, the model is told it was denied', async () => {
    const calledBefore = toolCalls('ask_form');
    const { second, model, seen, approvals } = await turn(
      [{ toolName: 'ask_form' }],
      (request) => ({
        id: request.id,
        ok: false,
        reason: 'declined',
      }),
    );
    expect(seen.map((request) => request.kind)).toEqual(['approval']);
    expect(approvals?.content).toEqual([
      expect.objectContaining({
        type: 'tool-approval-response',
        approved: false,
        reason: 'declined',
      }),
    ]);
    expect(toolCalls('ask_form')).toBe(calledBefore);
    expect(toolOutputsSent(model)).toEqual([{ type: 'execution-denied', reason: 'declined' }]);
    expect(second?.text).toBe('done');
  });

  it('two calls of one step: both approvals are asked at once, each call runs or not as answered', async () => {
    const inbox = createInbox();
    const open = await openSource(path, kind, server.url, {
      waitFor: async (request) => ({ id: request.id, ok: true, data: { value: 21 } }),
    });
    try {
      const model = scriptedModel([{ toolName: 'structured' }, { toolName: 'ask_form' }]);
      const tools = await mcpTools(open.source, { approve: ['structured', 'ask_form'] });
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const first = await generateText({ model, tools, messages });
      messages.push(...first.response.messages);
      const asking = askApprovals(first.content, { waitFor: inbox.waitFor, tools });
      await expect.poll(() => inbox.getSnapshot().length).toBe(2);
      // Both are open before either is answered.
      const [one, two] = inbox.getSnapshot();
      const structured = one?.data?.origin?.tool === 'structured' ? one : two;
      const form = structured === one ? two : one;
      inbox.answer({ id: form!.id, ok: false, reason: 'declined' });
      inbox.answer({ id: structured!.id, ok: true });
      messages.push((await asking)!);
      const before = toolCalls('ask_form');
      await generateText({ model, tools, messages, stopWhen: stepCountIs(2) });
      expect(toolCalls('ask_form')).toBe(before);
      expect(toolOutputsSent(model)).toEqual([
        { type: 'content', value: [{ type: 'text', text: 'doubled=42' }] },
        { type: 'execution-denied', reason: 'declined' },
      ]);
    } finally {
      await open.close();
    }
  });
});

describe('approve and askApprovals', () => {
  it('approve as a function of the input: only the calls it picks wait for a person', async () => {
    const open = await openSource('connect', 'v2-modern', server.url, {
      waitFor: async (request) => ({ id: request.id, ok: true }),
    });
    try {
      const tools = await mcpTools(open.source, {
        approve: ({ tool: name, input }) =>
          name === 'fan_out' && (input as { count?: number }).count! > 2,
      });
      const first = await generateText({
        model: scriptedModel([
          { toolName: 'fan_out', input: { count: 1 } },
          { toolName: 'fan_out', input: { count: 3 } },
        ]),
        tools,
        prompt: 'go',
      });
      expect(first.toolResults.map((part) => part.toolCallId)).toEqual(['call-1']);
      const parts = first.content.filter((part) => part.type === 'tool-approval-request');
      expect(parts.map((part) => part.toolCall.toolCallId)).toEqual(['call-2']);
      const seen: Request[] = [];
      await askApprovals(first.content, {
        waitFor: async (request) => {
          seen.push(request);
          return { id: request.id, ok: true };
        },
        tools,
      });
      expect(seen[0]?.prompt).toBe('Run fan_out with {"count":3}?');
    } finally {
      await open.close();
    }
  });

  it("a host's own AI SDK tool asks under the server name given; a long input is cut in the prompt", async () => {
    const own = {
      note: tool({
        title: 'Write a note',
        inputSchema: z.object({ text: z.string() }),
        needsApproval: true,
        execute: async ({ text }) => text.length,
      }),
    };
    const long = 'x'.repeat(1000);
    const first = await generateText({
      model: scriptedModel([{ toolName: 'note', input: { text: long } }]),
      tools: own,
      prompt: 'go',
    });
    const seen: Request[] = [];
    const message = await askApprovals(first.content, {
      waitFor: async (request) => {
        seen.push(request);
        return { id: request.id, ok: true };
      },
      tools: own,
      server: 'This app',
    });
    expect(seen[0]?.data?.origin).toMatchObject({ server: 'This app', tool: 'note' });
    expect(seen[0]?.prompt.startsWith('Run Write a note with {"text":"xxx')).toBe(true);
    expect(seen[0]?.prompt.length).toBeLessThan(450);
    expect(seen[0]?.data?.input).toEqual({ text: long });
    expect(message?.content).toEqual([
      { type: 'tool-approval-response', approvalId: expect.any(String), approved: true },
    ]);
  });

  it('the signal ends every open approval and askApprovals rejects with its reason', async () => {
    const own = {
      a: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 1 }),
      b: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 2 }),
    };
    const first = await generateText({
      model: scriptedModel([{ toolName: 'a' }, { toolName: 'b' }]),
      tools: own,
      prompt: 'go',
    });
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const asking = askApprovals(first.content, {
      waitFor: (_request, context) =>
        new Promise<Answer>(() => {
          signals.push(context?.signal as AbortSignal);
          if (signals.length === 2) controller.abort(new Error('the user pressed stop'));
        }),
      signal: controller.signal,
    });
    await expect(asking).rejects.toThrow('the user pressed stop');
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });

  it('content without approval requests asks nothing; a bad approve is refused before listing', async () => {
    const asked: Request[] = [];
    const waitFor = async (request: Request): Promise<Answer> => {
      asked.push(request);
      return { id: request.id, ok: true };
    };
    expect(await askApprovals([{ type: 'text', text: 'hi' }], { waitFor })).toBeUndefined();
    expect(asked).toEqual([]);
    const open = await openSource('connect', 'v2-modern', server.url, { waitFor });
    try {
      await expect(
        mcpTools(open.source, { approve: 'yes' as unknown as boolean }),
      ).rejects.toMatchObject({ name: 'AiSdkError', code: 'invalid_options' });
    } finally {
      await open.close();
    }
  });
});
