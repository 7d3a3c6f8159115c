/**
 * What lets the 2025-11-25 tasks fixture (`legacyTasksServer.ts`, option `shared`) keep a task
 * across sessions with the v1 SDK's own pieces: a store that binds tasks to no session, and the
 * session a task's questions are asked on. The SDK routes a pushed question's answer back only to
 * the server instance that asked it, so a question goes out on the session reading the task's
 * tasks/result now, and again on the next one when that stream closes unanswered.
 *
 * The SDK's InMemoryTaskMessageQueue keys a task's messages by the task alone, and a tasks/result
 * handler does not end when its HTTP stream drops (a client killed with -9 sends no DELETE): that
 * session's handler keeps draining the task's queue into a stream nobody reads, so a question
 * asked on the next reader's session could be lost there. SessionTaskQueue keys them by session
 * too: a message goes out only on the session whose server instance queued it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  type QueuedMessage,
  type TaskMessageQueue,
} from '@modelcontextprotocol/sdk/experimental/tasks';

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

/** The SDK's in-memory message queue, a task's messages kept apart per session. */
export class SessionTaskQueue implements TaskMessageQueue {
  readonly #queue = new InMemoryTaskMessageQueue();
  // A session id and a task id never hold a NUL, so the pair cannot collide.
  readonly #key = (taskId: string, sessionId?: string) => `${sessionId ?? ''}\u0000${taskId}`;

  enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number) {
    return this.#queue.enqueue(this.#key(taskId, sessionId), message, sessionId, maxSize);
  }

  dequeue(taskId: string, sessionId?: string) {
    return this.#queue.dequeue(this.#key(taskId, sessionId), sessionId);
  }

  dequeueAll(taskId: string, sessionId?: string) {
    return this.#queue.dequeueAll(this.#key(taskId, sessionId), sessionId);
  }
}
