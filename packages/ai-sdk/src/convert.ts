import { isRecord } from '@waitfor/runtime';
import type { Tool, jsonSchema } from 'ai';
import { AiSdkError } from './aiSdkError';

/** What the model is shown of a tool result (the AI SDK's ToolResultOutput). */
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;
type ContentPart = Extract<ModelOutput, { type: 'content' }>['value'][number];
/** The JSON Schema `jsonSchema()` takes. */
export type InputSchema = Parameters<typeof jsonSchema>[0] & object;

/**
 * The tool's input schema as the server sent it. Only a missing `properties` is filled in with
 * `{}` (several providers refuse an object schema without it); nothing else is added or removed.
 */
export function inputSchemaOf(name: string, schema: unknown): InputSchema {
  if (!isRecord(schema) || schema.type !== 'object')
    throw new AiSdkError('invalid_tools', `tool "${name}" has no object inputSchema`);
  return (isRecord(schema.properties) ? schema : { ...schema, properties: {} }) as InputSchema;
}

const text = (value: string): ContentPart => ({ type: 'text', text: value });
const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** One MCP content block as the model sees it: text, image and audio data, resources. */
function contentPart(block: unknown): ContentPart {
  if (!isRecord(block)) return text(JSON.stringify(block) ?? '');
  const data = stringOf(block.data);
  const mediaType = stringOf(block.mimeType);
  if (block.type === 'text' && typeof block.text === 'string') return text(block.text);
  if (block.type === 'image' && data !== undefined && mediaType !== undefined)
    return { type: 'image-data', data, mediaType };
  if (block.type === 'audio' && data !== undefined && mediaType !== undefined)
    return { type: 'file-data', data, mediaType };
  const resource = block.resource;
  if (block.type === 'resource' && isRecord(resource)) {
    if (typeof resource.text === 'string') return text(resource.text);
    const blob = stringOf(resource.blob);
    if (blob !== undefined)
      return {
        type: 'file-data',
        data: blob,
        mediaType: stringOf(resource.mimeType) ?? 'application/octet-stream',
      };
  }
  // resource_link and anything newer: the block itself, as JSON text.
  return text(JSON.stringify(block));
}

const contentOf = (result: Record<string, unknown>): unknown[] =>
  Array.isArray(result.content) ? result.content : [];

/**
 * A CallToolResult as the model sees it: its content blocks, or its structured content as JSON
 * when it has no content. The step's tool result keeps the whole result (`output`).
 */
export function toModelOutput({ output }: { output: unknown }): ModelOutput {
  const result = isRecord(output) ? output : {};
  const content = contentOf(result);
  if (content.length > 0) return { type: 'content', value: content.map(contentPart) };
  if (result.structuredContent !== undefined)
    return { type: 'json', value: result.structuredContent as never };
  return { type: 'text', value: '' };
}

/** The error an `isError` result becomes: its text blocks as the message, the result kept. */
export function toolError(name: string, result: Record<string, unknown>): AiSdkError {
  const message = contentOf(result)
    .flatMap((block) => (isRecord(block) && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
  return new AiSdkError('tool_error', message || `tool "${name}" failed`, { result });
}
