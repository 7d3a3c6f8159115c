/**
 * A task's status stream (`subscriptions/listen` with `taskIds`, SEP-2663): the server pushes a
 * full task (`notifications/tasks`) on every change, so a watch needs no polls while it is open.
 *
 * Invariants: the stream is tried once per watch and closes for good when the server refuses it
 * (a server without the method answers -32601), when its request ends (every subscribed task is
 * terminal) or when the watch ends; each pushed task is checked like a polled one (a malformed
 * push ends the watch with its error); nothing waits on a stream alone — a watch still polls after
 * MAX_POLL without a push, so a server that accepts and never pushes cannot hang it.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { linkedController, MAX_TIMER_DELAY } from '@waitfor/runtime';
import type { ClientPort } from '../clientPort';
import type { TaskStatus } from '../types';

/** The pushed statuses of one task. */
export interface TaskStream {
  /** The next pushed status; 'closed' once the stream is over; undefined when `signal` aborts. */
  next(signal: AbortSignalLike): Promise<TaskStatus | 'closed' | undefined>;
  close(): void;
}

/** Open the status stream of `taskId` on `port` (pushes are read with `parse`). */
export function listenTask(
  port: ClientPort,
  taskId: string,
  parse: (value: unknown) => TaskStatus,
): TaskStream {
  const scope = linkedController(undefined);
  const queue: Array<{ status: TaskStatus } | { error: unknown }> = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = port.onNotification('notifications/tasks', (params) => {
    if (closed || params['taskId'] !== taskId) return;
    try {
      queue.push({ status: parse(params) });
    } catch (error) {
      queue.push({ error });
    }
    notify();
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    scope.abort('The watch ended');
    scope.dispose();
    notify();
  };
  port
    .request(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { signal: scope.signal, timeout: MAX_TIMER_DELAY },
    )
    // Refused (no such method), or over (every task terminal): the watch polls from now on.
    .then(close, close);
  return {
    close,
    next: (signal) =>
      new Promise((resolve, reject) => {
        const settle = () => {
          signal.removeEventListener('abort', onAbort);
          const item = queue.shift();
          if (item === undefined) return resolve(closed ? 'closed' : undefined);
          if ('error' in item) return reject(item.error);
          resolve(item.status);
        };
        const onAbort = () => {
          wake = undefined;
          signal.removeEventListener('abort', onAbort);
          resolve(undefined);
        };
        if (queue.length > 0 || closed) return settle();
        wake = settle;
        signal.addEventListener('abort', onAbort);
      }),
  };
}
