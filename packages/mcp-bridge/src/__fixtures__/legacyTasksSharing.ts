/**
 * What lets the 2025-11-25 tasks fixture (`legacyTasksServer.ts`, option `shared`) keep a task
 * across sessions with the v1 SDK's own pieces: a store that binds tasks to no session, and the
 * session a task's questions are asked on. The SDK routes a pushed question's answer back only to
 * the server instance that asked it, so a question goes out on the session reading the task's
 * tasks/result now, and again on the next one when that stream closes unanswered.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';

/** The session a task's question goes out on, and the signal that says its stream closed. */
export type Asker = (taskId: string) => Promise<{ mcp: McpServer; signal: AbortSignal }>;

/** The SDK's in-memory store with tasks bound to no session (any session with the id reaches it). */
export class SharedTaskStore extends InMemoryTaskStore {
  override createTask(
    ...[params, requestId, request]: Parameters<InMemoryTaskStore['createTask']>
  ) {
    return super.createTask(params, requestId, request, undefined);
  }
}

/** Per task, the session whose tasks/result stream is open now (shared tasks ask there). */
export class Readers {
  readonly #current = new Map<string, { mcp: McpServer; signal: AbortSignal }>();
  readonly #waiting = new Map<string, Array<() => void>>();

  attach(taskId: string, mcp: McpServer, signal: AbortSignal): void {
    const reader = { mcp, signal };
    this.#current.set(taskId, reader);
    signal.addEventListener('abort', () => {
      if (this.#current.get(taskId) === reader) this.#current.delete(taskId);
    });
    for (const wake of this.#waiting.get(taskId) ?? []) wake();
    this.#waiting.delete(taskId);
  }

  async next(taskId: string): Promise<{ mcp: McpServer; signal: AbortSignal }> {
    for (;;) {
      const reader = this.#current.get(taskId);
      if (reader !== undefined && !reader.signal.aborted) return reader;
      await new Promise<void>((resolve) =>
        this.#waiting.set(taskId, [...(this.#waiting.get(taskId) ?? []), resolve]),
      );
    }
  }
}
