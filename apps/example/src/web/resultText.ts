/** The text a person should read from an MCP tool result: its text blocks, joined. */
export function resultText(result: unknown): string {
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return JSON.stringify(result);
  const texts = content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text);
  return texts.length > 0 ? texts.join('\n') : JSON.stringify(content);
}

/** Whether a tool result reports a failure of the tool itself (`isError`). */
export function isToolError(result: unknown): boolean {
  return (result as { isError?: unknown } | undefined)?.isError === true;
}

/** A readable message for anything thrown. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

// One code prefix: the SDK's ("MCP error -32603: "), the bridge's ("Server error -32042: ") or a
// bare JSON-RPC code. The bridge wraps the SDK's message, so a message may carry both.
const codePrefix = /^(?:(?:MCP error|Server error|JSON-RPC error)\s*)?-?\d{4,5}:\s*/i;

/**
 * A failure as a person reads it: the message without the SDK's "MCP error -32603:" or the bridge's
 * "Server error -32042:" prefix (or both), which say nothing to whoever answers the questions.
 */
export function readableError(error: unknown): string {
  let text = errorText(error);
  for (let stripped = 0; stripped < 3 && codePrefix.test(text); stripped++)
    text = text.replace(codePrefix, '');
  return text.replace(/^MCP error\s*/i, '');
}
