/**
 * The AI SDK's own test model (`MockLanguageModelV3` from `ai/test`; ai 7 still runs it), scripted:
 * its first step calls the given tools (all in one step), every later step answers "done" — the
 * same script for `generateText` (doGenerate) and `streamText` (doStream).
 * `model.doGenerateCalls` records what the model was sent (tools, and the tool results after).
 */
import { simulateReadableStream } from 'ai';
import * as aiTest from 'ai/test';
import { MockLanguageModelV3 } from 'ai/test';

/** The AI SDK major these tests run on: 7 under vitest.ai7.config.ts (its test entry has V4). */
export const aiMajor: 6 | 7 = 'MockLanguageModelV4' in aiTest ? 7 : 6;

/**
 * The text a thrown tool error reaches the model as: its message on ai 6, `String(error)` (name
 * and message) on ai 7.
 */
export const errorTextOf = (error: Error): string =>
  aiMajor === 7 ? String(error) : error.message;

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  toolName: string;
  input?: Record<string, unknown>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The content of step `step` (1-based) of the script. */
function stepContent(calls: readonly ScriptedCall[], step: number): GenerateResult['content'] {
  if (step > 1) return [{ type: 'text', text: 'done' }];
  return calls.map((call, index) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${index + 1}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input ?? {}),
  }));
}

const finishReason = (step: number) =>
  ({ unified: step > 1 ? 'stop' : 'tool-calls', raw: undefined }) as const;

/** A model that calls `calls` in its first step, then says "done". */
export function scriptedModel(calls: readonly ScriptedCall[]): MockLanguageModelV3 {
  let generated = 0;
  let streamed = 0;
  return new MockLanguageModelV3({
    doGenerate: async (): Promise<GenerateResult> => {
      generated += 1;
      const content = stepContent(calls, generated);
      return { content, finishReason: finishReason(generated), usage, warnings: [] };
    },
    doStream: async () => {
      streamed += 1;
      const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of stepContent(calls, streamed)) {
        if (part.type === 'text')
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        else parts.push(part as StreamPart);
      }
      parts.push({ type: 'finish', finishReason: finishReason(streamed), usage });
      return {
        stream: simulateReadableStream({
          chunks: parts,
          initialDelayInMs: null,
          chunkDelayInMs: null,
        }),
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
