import type { WaitFor } from '@waitfor/core';
import type { Connection } from '@waitfor/mcp-bridge';
import { hostName, hostTool } from '../hostTool/hostTools.js';
import { callTimeout } from '../web/callTimeout.js';
import { isToolError, resultText } from '../web/resultText.js';
import type { Starter, ToolEnd } from './callRuns.js';

/** A tool result as the call log shows it: failed when the tool said so (`isError`). */
export const toolEnd = (result: unknown): ToolEnd => ({
  status: isToolError(result) ? 'failed' : 'done',
  text: resultText(result),
});

/** What a starter may run a call on. */
export interface StarterSources {
  /** The waitFor this app's own tools ask through. */
  hostWaitFor: WaitFor;
  /** The server's connection, if it is connected. */
  connection?: Connection;
  /** Hears the server's progress notifications for the call. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * What runs a call, in both modes: this app's own tool (asking through `hostWaitFor`, as both
 * servers' questions do), or the server's tool over its connection with a person-sized budget;
 * undefined when the server is not connected (the call then fails as "not connected").
 */
export function starterOf(
  server: string,
  tool: string,
  sources: StarterSources,
): Starter | undefined {
  const own = server === hostName ? hostTool(tool) : undefined;
  if (own !== undefined)
    return (signal) =>
      own.run(sources.hostWaitFor, signal).then((text) => ({ status: 'done', text }));
  const { connection } = sources;
  if (connection === undefined || connection.state.getSnapshot().status === 'closed')
    return undefined;
  return (signal) =>
    connection
      .callTool(
        { name: tool, arguments: {} },
        {
          timeout: callTimeout(connection),
          signal,
          ...(sources.onprogress === undefined ? {} : { onprogress: sources.onprogress }),
        },
      )
      .then(toolEnd);
}
