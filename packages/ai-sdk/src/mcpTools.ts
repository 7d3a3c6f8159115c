import { isRecord } from '@waitfor/runtime';
import type { CallOptions, ListOptions, ToolParams } from '@waitfor/mcp-bridge';
import { dynamicTool, jsonSchema, type Tool } from 'ai';
import { AiSdkError } from './aiSdkError';
import { needsApprovalOf, type ApproveOption } from './approvals';
import { inputSchemaOf, toModelOutput, toolError } from './convert';

/**
 * What `mcpTools` needs of a bridge: a `Connection` from `connect(...)` or the `Bridge` that
 * `attachWaitFor(client, ...)` returns.
 */
export interface McpToolSource {
  callTool(params: ToolParams, options?: CallOptions & { durable?: false }): Promise<object>;
  listTools(options?: ListOptions): Promise<object>;
  /** Who asks (shown to the person); named in each tool's `metadata.server`. */
  readonly serverName?: string;
}

/** Options of `mcpTools`. */
export interface McpToolsOptions {
  /**
   * Options of every call, as the bridge's `callTool` takes them (`timeout`, `waitFor`, `modes`,
   * `maxRounds`, …). The signal is the model's: `execute`'s `abortSignal`.
   */
  call?: Omit<CallOptions, 'signal'>;
  /** Only these tools (names as the server lists them); default every tool. */
  include?: readonly string[];
  /** Refuse a server listing more tools than this (default 1000): `invalid_tools`. */
  maxTools?: number;
  /**
   * Which tools wait for a person's approval before they run (the AI SDK's `needsApproval`):
   * `true` every tool, tool names, or a function of the call. The step then ends with
   * `tool-approval-request` parts; `askApprovals` asks them through `waitFor`.
   */
  approve?: ApproveOption;
  /** Ends the listing (tools/list), not the calls. */
  signal?: ListOptions['signal'];
}

/** An MCP tool as the AI SDK runs it: a dynamic tool (its types are known at run time only). */
export type McpTool = Tool<unknown, unknown> & { type: 'dynamic' };

const DEFAULT_MAX_TOOLS = 1000;

/** Every page of tools/list, bounded by `maxTools` (and so by the number of pages). */
async function listAll(source: McpToolSource, maxTools: number, signal?: ListOptions['signal']) {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page <= maxTools; page++) {
    const result = await source.listTools({ ...(cursor === undefined ? {} : { cursor }), signal });
    const listed = isRecord(result) && Array.isArray(result.tools) ? result.tools : undefined;
    if (listed === undefined) throw new AiSdkError('invalid_tools', 'tools/list has no tools');
    tools.push(...listed);
    if (tools.length > maxTools)
      throw new AiSdkError('invalid_tools', `the server lists more than ${maxTools} tools`);
    cursor = isRecord(result) && typeof result.nextCursor === 'string' ? result.nextCursor : '';
    if (cursor === '') return tools;
  }
  throw new AiSdkError('invalid_tools', `tools/list has more than ${maxTools} pages`);
}

/** One listed tool as an AI SDK tool whose `execute` runs through the bridge. */
function toAiTool(
  source: McpToolSource,
  definition: Record<string, unknown>,
  options: McpToolsOptions,
) {
  const name = definition.name as string;
  const annotations = isRecord(definition.annotations) ? definition.annotations : {};
  const title = definition.title ?? annotations.title;
  const needsApproval = needsApprovalOf(name, options.approve);
  return dynamicTool({
    ...(typeof definition.description === 'string' ? { description: definition.description } : {}),
    ...(typeof title === 'string' ? { title } : {}),
    metadata: { server: source.serverName ?? '', tool: name },
    inputSchema: jsonSchema(inputSchemaOf(name, definition.inputSchema)),
    execute: async (input, { abortSignal }) => {
      const result = (await source.callTool(
        { name, arguments: isRecord(input) ? input : {} },
        { ...options.call, ...(abortSignal === undefined ? {} : { signal: abortSignal }) },
      )) as Record<string, unknown>;
      if (result.isError === true) throw toolError(name, result);
      return result;
    },
    toModelOutput,
    ...(needsApproval === undefined ? {} : { needsApproval }),
  }) as McpTool;
}

/**
 * The tools of an MCP server as AI SDK tools, for `generateText`, `streamText` and agents. Each
 * `execute` runs `source.callTool`: every question the server asks on the way — legacy push or
 * modern `input_required`, form or URL, all of a round at once — reaches the bridge's `waitFor`,
 * and the model's abort signal ends the call and its open questions.
 */
export async function mcpTools(
  source: McpToolSource,
  options: McpToolsOptions = {},
): Promise<Record<string, McpTool>> {
  const maxTools = options.maxTools ?? DEFAULT_MAX_TOOLS;
  if (!Number.isInteger(maxTools) || maxTools < 1)
    throw new AiSdkError('invalid_options', 'maxTools must be an integer ≥ 1');
  // A bad approve is refused before anything is listed.
  needsApprovalOf('', options.approve);
  const include = options.include === undefined ? undefined : new Set(options.include);
  const tools: Record<string, McpTool> = Object.create(null) as Record<string, McpTool>;
  for (const definition of await listAll(source, maxTools, options.signal)) {
    const name = isRecord(definition) ? definition.name : undefined;
    if (typeof name !== 'string' || name === '')
      throw new AiSdkError('invalid_tools', 'tools/list has a tool without a name');
    if (Object.hasOwn(tools, name))
      throw new AiSdkError('invalid_tools', `tools/list names "${name}" twice`);
    if (include !== undefined && !include.has(name)) continue;
    tools[name] = toAiTool(source, definition as Record<string, unknown>, options);
  }
  return tools;
}
