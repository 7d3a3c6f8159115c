/**
 * A real LangGraph StateGraph whose one node calls an MCP tool through the adapter: the state names
 * the tool and its arguments, the node writes the tool's text. `runs` counts how often the node
 * started (it starts again from the top on every resume). Imports no test runner: a child process
 * builds the same graph to resume a run.
 */
import { Annotation, END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { callToolWithInterrupt, type InterruptCallOptions, type InterruptSource } from '../index';

/** The text of the first content block of a tool result. */
const textOf = (result: unknown): string =>
  (result as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? '';

export const ToolState = Annotation.Root({
  tool: Annotation<string>,
  args: Annotation<Record<string, unknown> | undefined>,
  text: Annotation<string | undefined>,
});

/** A graph START → call → END over `source`, compiled with `checkpointer`. */
export function toolGraph(
  source: InterruptSource,
  checkpointer: BaseCheckpointSaver,
  options: Omit<InterruptCallOptions, 'config'> = {},
) {
  const counter = { runs: 0 };
  const graph = new StateGraph(ToolState)
    .addNode('call', async (state, config) => {
      counter.runs += 1;
      const result = await callToolWithInterrupt(
        source,
        { name: state.tool, ...(state.args === undefined ? {} : { arguments: state.args }) },
        { ...options, config },
      );
      return { text: textOf(result) };
    })
    .addEdge(START, 'call')
    .addEdge('call', END)
    .compile({ checkpointer });
  return { graph, counter };
}

/** The tools/call messages the fixture received for `tool`, and those that carried answers. */
export function toolCalls(
  received: ReadonlyArray<{ message: { method?: string; params?: Record<string, unknown> } }>,
  tool: string,
) {
  const calls = received.filter(
    (item) => item.message.method === 'tools/call' && item.message.params?.name === tool,
  );
  return {
    legs: calls.length,
    answered: calls.filter((item) => item.message.params?.inputResponses !== undefined).length,
  };
}
