/**
 * The AI SDK's own test model (`MockLanguageModelV3` from `ai/test`, the model of ai 6), scripted:
 * its first step calls the given tools (all in one step), every later step answers "done".
 * `model.doGenerateCalls` records what the model was sent (tools, and the tool results after).
 */
import { MockLanguageModelV3 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  toolName: string;
  input?: Record<string, unknown>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls `calls` in its first step, then says "done". */
export function scriptedModel(calls: readonly ScriptedCall[]): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<GenerateResult> => {
      step += 1;
      if (step > 1)
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: calls.map((call, index) => ({
          type: 'tool-call' as const,
          toolCallId: `call-${index + 1}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input ?? {}),
        })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** The tool results the model was sent in its second step (what `toModelOutput` made). */
export function toolOutputsSent(model: MockLanguageModelV3): unknown[] {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}
