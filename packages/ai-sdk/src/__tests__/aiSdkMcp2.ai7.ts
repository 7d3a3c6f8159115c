/**
 * What the AI SDK's own MCP client of `ai` 7 (`@ai-sdk/mcp` 2.x, Node 22) does with the same
 * fixture server, through the same generateText and scripted model: the README's comparison
 * table, second column. Run only by vitest.ai7.config.ts (under `ai` 7), which maps `@ai-sdk/mcp`
 * to the `ai-sdk-mcp-v2` alias; each test records its behaviour as it is.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../../../mcp-bridge/src/__fixtures__/clients';
import { never, outputsOf, useAiSdkMcp } from '../__fixtures__/aiSdkMcp';

const { server, run } = useAiSdkMcp('ai-sdk-compare-2');

const errorsOf = (content: Awaited<ReturnType<typeof run>>) =>
  content.flatMap((part) => (part.type === 'tool-error' ? [String(part.error)] : []));

/** Lets every pending promise chain run (one macrotask turn), without waiting on a clock. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('@ai-sdk/mcp 2.x on the dual-era fixture', () => {
  it('speaks the modern era: it opens with server/discover at 2026-07-28, never initialize', async () => {
    await run([], never);
    const mine = server.received.filter(
      (entry) =>
        JSON.stringify(entry.message.params ?? {}).includes('"ai-sdk-compare-2"') ||
        (entry.message.params?.clientInfo as { name?: string } | undefined)?.name ===
          'ai-sdk-compare-2',
    );
    expect(mine[0]?.message.method).toBe('server/discover');
    expect(JSON.stringify(mine[0]?.message.params)).toContain('"2026-07-28"');
    expect(mine.every((entry) => entry.era === 'modern')).toBe(true);
    expect(mine.some((entry) => entry.message.method === 'initialize')).toBe(false);
  });

  it('answers a form through onElicitationRequest', async () => {
    const content = await run([{ toolName: 'ask_form' }], async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    expect(outputsOf(content).map(textOf)).toEqual(['accept:{"name":"Ada"}']);
  });

  it('asks the three questions of one round one after another: the next only once the last is answered', async () => {
    const asked: string[] = [];
    const answers: Array<() => void> = [];
    const running = run(
      [{ toolName: 'fan_out', input: { count: 3 } }],
      (request) =>
        new Promise((resolve) => {
          asked.push(request.params.message);
          answers.push(() => resolve({ action: 'accept', content: { value: 'x' } }));
        }),
    );
    for (let answered = 0; answered < 3; answered++) {
      await expect.poll(() => asked.length).toBe(answered + 1);
      // Every chain the round started has run: no other question reached the handler.
      for (let turn = 0; turn < 5; turn++) await settle();
      expect(asked).toHaveLength(answered + 1);
      answers[answered]!();
    }
    expect(asked).toEqual(['Question q1', 'Question q2', 'Question q3']);
    expect(textOf(outputsOf(await running)[0])).toBe(
      'q1=accept:{"value":"x"} q2=accept:{"value":"x"} q3=accept:{"value":"x"}',
    );
  });

  it('throws on a URL question, declared or not: a tool error, nobody is asked', async () => {
    const [undeclared] = errorsOf(await run([{ toolName: 'ask_url' }], never));
    expect(undeclared).toContain('MCPClientError');
    expect(undeclared).toContain('do not declare the required capability');
    const declared = { elicitation: { form: {}, url: {} } };
    const [refused] = errorsOf(await run([{ toolName: 'ask_url' }], never, declared));
    expect(refused).toContain('Only form elicitation is supported');
  });

  it('throws on sampling and roots: tool errors, nobody is asked', async () => {
    const errors = errorsOf(
      await run([{ toolName: 'ask_sampling' }, { toolName: 'ask_roots' }], never),
    );
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toContain('do not declare the required capability');
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
