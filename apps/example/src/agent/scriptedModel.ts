import { MockLanguageModelV3 } from 'ai/test';

/** What the scripted model is asked (the AI SDK's call options of a language model). */
type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Message = CallOptions['prompt'][number];

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** A tool's verb, the first word of its name: `scale` for `scale_service`. */
const verbOf = (name: string): string => name.split(/[_-]/)[0]!.toLowerCase();

/** A service name the person wrote (`search-api`), for a tool whose input takes `service`. */
const serviceIn = (text: string): string | undefined =>
  /\b([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b/i.exec(text)?.[1]?.toLowerCase();

const takes = (schema: unknown, key: string): boolean => {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, key);
};

const textOf = (message: Message): string =>
  Array.isArray(message.content)
    ? message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ')
    : String(message.content);

/** What a tool result told the model, in one line. */
function resultLine(
  part: Extract<Extract<Message, { role: 'tool' }>['content'][number], { type: 'tool-result' }>,
) {
  const { output } = part;
  if (output.type === 'execution-denied') return `You did not allow ${part.toolName}.`;
  if (output.type === 'error-text') return `${part.toolName} failed: ${output.value}`;
  if (output.type === 'content')
    return `${part.toolName}: ${output.value.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join(' ')}`;
  if (output.type === 'text') return `${part.toolName}: ${output.value}`;
  return `${part.toolName}: ${JSON.stringify(output.value)}`;
}

/**
 * The reply of the script to what it was sent: after tool results, one line per result; after a
 * person's message, a call of the tool whose verb it names (`book`, `scale`, …), with the service
 * it names when the tool takes one, else a list of what it can do.
 */
function reply(options: CallOptions, nextId: () => string): GenerateResult['content'] {
  const last = options.prompt.at(-1);
  if (last?.role === 'tool') {
    const lines = last.content.flatMap((part) =>
      part.type === 'tool-result' ? [resultLine(part)] : [],
    );
    return [{ type: 'text', text: lines.join('\n') }];
  }
  const said = last?.role === 'user' ? textOf(last).toLowerCase() : '';
  const tools = (options.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool] : []));
  const words = new Set(said.split(/[^a-z0-9-]+/));
  const tool = tools.find((candidate) => words.has(verbOf(candidate.name)));
  if (tool === undefined) {
    const verbs = [...new Set(tools.map((candidate) => verbOf(candidate.name)))];
    return [{ type: 'text', text: `I am a scripted model. Ask me to ${verbs.join(', ')}.` }];
  }
  const service = takes(tool.inputSchema, 'service') ? serviceIn(said) : undefined;
  return [
    {
      type: 'tool-call',
      toolCallId: nextId(),
      toolName: tool.name,
      input: JSON.stringify(service === undefined ? {} : { service }),
    },
  ];
}

/**
 * The example's agent model: the AI SDK's own test model (`MockLanguageModelV3`, no network)
 * with a script. It calls the tool the person's message names and then says what the tool
 * returned; it never calls a tool twice for one message. `nextId` names its tool calls (unique
 * across a conversation). One model per turn: the test model records every call it gets.
 */
export function scriptedAgentModel(nextId: () => string): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'waitfor-example',
    modelId: 'scripted',
    doGenerate: async (options) => {
      const content = reply(options, nextId);
      const called = content.some((part) => part.type === 'tool-call');
      return {
        content,
        finishReason: { unified: called ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}
