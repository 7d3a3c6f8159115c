import type { ToolParams } from '@waitfor/mcp-bridge';
import {
  callToolWithInterrupt,
  type InterruptCallOptions,
  type InterruptSource,
} from './callToolWithInterrupt';
import { LangGraphError } from './langGraphError';

/** Options of `mcpToolNode`: how the node reads its arguments and writes the result. */
export interface McpToolNodeOptions<State, Update> extends Omit<InterruptCallOptions, 'config'> {
  /** The tool's arguments, from the node's state (default: none). */
  args?: (state: State) => ToolParams['arguments'];
  /** The node's state update, from the tool's CallToolResult (an `isError` one too). */
  update: (result: Record<string, unknown>, state: State) => Update | Promise<Update>;
}

/**
 * A LangGraph node that calls one MCP tool through the bridge (`callToolWithInterrupt`): a
 * modern-era question interrupts the run until `Command({ resume: answers })`, a legacy-era push is
 * answered inline by `waitFor`, the run's abort signal ends the call. Add it with
 * `graph.addNode(name, mcpToolNode(connection, 'book_trip', { args, update }))`.
 */
export function mcpToolNode<State, Update>(
  source: InterruptSource,
  toolName: string,
  options: McpToolNodeOptions<State, Update>,
): (state: State, config?: InterruptCallOptions['config']) => Promise<Update> {
  if (typeof toolName !== 'string' || toolName === '')
    throw new LangGraphError('invalid_options', 'mcpToolNode needs a tool name');
  if (typeof options?.update !== 'function')
    throw new LangGraphError('invalid_options', 'mcpToolNode needs options.update');
  const { args, update, ...call } = options;
  return async (state, config) => {
    const given = args?.(state);
    const params: ToolParams =
      given === undefined ? { name: toolName } : { name: toolName, arguments: given };
    const result = await callToolWithInterrupt(source, params, {
      ...call,
      ...(config === undefined ? {} : { config }),
    });
    return update(result, state);
  };
}
