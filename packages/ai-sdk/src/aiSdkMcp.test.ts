/**
 * What the AI SDK's own MCP client (`@ai-sdk/mcp` 1.x, the one for ai 6) does with the same
 * fixture server, through the same generateText and scripted model: the README's comparison
 * table. Each test records its behaviour as it is; the adapter's side is in mcpTools.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import { never, outputsOf, useAiSdkMcp } from './__fixtures__/aiSdkMcp';

const { server, run } = useAiSdkMcp('ai-sdk-compare');

describe('@ai-sdk/mcp 1.x on the dual-era fixture', () => {
  it('speaks the legacy era only: it initializes with 2025-11-25, so a modern server is never reached', async () => {
    await run([], never);
    const initialize = server.received.find(
      (entry) =>
        entry.message.method === 'initialize' &&
        (entry.message.params?.clientInfo as { name?: string } | undefined)?.name ===
          'ai-sdk-compare',
    );
    expect(initialize?.era).toBe('legacy');
    expect(initialize?.message.params?.protocolVersion).toBe('2025-11-25');
  });

  it('answers a form through onElicitationRequest', async () => {
    const content = await run([{ toolName: 'ask_form' }], async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    expect(outputsOf(content).map(textOf)).toEqual(['accept:{"name":"Ada"}']);
  });

  it('gets the three pushes of a legacy round at once (it never sees a modern round)', async () => {
    const asked: string[] = [];
    const answers: Array<() => void> = [];
    const content = await run(
      [{ toolName: 'fan_out', input: { count: 3 } }],
      (request) =>
        new Promise((resolve) => {
          asked.push(request.params.message);
          answers.push(() => resolve({ action: 'accept', content: { value: 'x' } }));
          if (answers.length === 3) for (const answer of answers) answer();
        }),
    );
    expect(asked.sort()).toEqual(['Question q1', 'Question q2', 'Question q3']);
    expect(textOf(outputsOf(content)[0])).toBe(
      'q1=accept:{"value":"x"} q2=accept:{"value":"x"} q3=accept:{"value":"x"}',
    );
  });

  it('cannot serve a URL question: undeclared, the server refuses it; declared, its own schema refuses the push', async () => {
    const [undeclared] = outputsOf(await run([{ toolName: 'ask_url' }], never));
    expect(undeclared).toMatchObject({ isError: true });
    expect(textOf(undeclared)).toContain('did not declare the required capability');
    const declared = { elicitation: { form: {}, url: {} } };
    const [refused] = outputsOf(await run([{ toolName: 'ask_url' }], never, declared));
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toContain('Invalid elicitation request');
    expect(textOf(refused)).toContain('requestedSchema');
  });

  it('cannot serve sampling or roots: the server refuses both, nobody is asked', async () => {
    const outputs = outputsOf(
      await run([{ toolName: 'ask_sampling' }, { toolName: 'ask_roots' }], never),
    );
    expect(outputs).toHaveLength(2);
    for (const output of outputs) {
      expect(output).toMatchObject({ isError: true });
      expect(textOf(output)).toContain('did not declare the required capability');
    }
  });

  it('returns an isError result as a tool result, not as a tool error', async () => {
    const content = await run([{ toolName: 'slow', input: { ms: 'soon' } }], never);
    expect(content.some((part) => part.type === 'tool-error')).toBe(false);
    const [output] = outputsOf(content);
    expect(output).toMatchObject({ isError: true });
    expect(textOf(output)).toContain('Input validation error');
  });

  it('hands its elicitation handler the request only: no signal ends an open question', async () => {
    const seen: unknown[][] = [];
    await run([{ toolName: 'ask_form' }], async (...args: unknown[]) => {
      seen.push(args);
      return { action: 'cancel' };
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toHaveLength(1);
  });
});
