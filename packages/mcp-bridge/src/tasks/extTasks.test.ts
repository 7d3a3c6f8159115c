/**
 * Side by side on one 2026-07-28 Tasks server (the conformance-checked fixture): the official
 * requester `@modelcontextprotocol/ext-tasks` 0.2.2 (its `onInputRequest`, with the host framing of
 * __fixtures__/extTasksHost.ts) and waitfor's `callTool`, answering from the same script. Every
 * question ext-tasks delivers, waitfor delivers — the same input keys, the same params — and the same
 * answers reach the server (compared on the server's own log of `tasks/update`), and both callers
 * get the same final result.
 */
import type { ApplicationElicitResult } from '@modelcontextprotocol/ext-tasks/client';
import type { Answer, Request } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openExtTasks } from '../__fixtures__/extTasksHost';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import { connect } from '../node';

type Json = Record<string, unknown>;

/** The script both requesters answer from: per input key, an ElicitResult. */
const script: Record<string, ApplicationElicitResult> = {
  region: { action: 'accept', content: { region: 'eu-west' } },
  a: { action: 'accept', content: { a: 'one' } },
  b: { action: 'decline' },
  c: { action: 'accept' },
  first: { action: 'accept', content: { first: '1' } },
  second: { action: 'accept', content: { second: '2' } },
};

/** The same script as waitfor Answers (accept → ok with the content; decline → declined). */
function answerOf(request: Request, key: string): Answer {
  const result = script[key];
  if (result === undefined) throw new Error(`no scripted answer for ${key}`);
  if (result.action === 'accept') return { id: request.id, ok: true, data: { ...result.content } };
  return {
    id: request.id,
    ok: false,
    reason: result.action === 'decline' ? 'declined' : 'cancelled',
  };
}

/** One question as the person saw it, in the terms both requesters share (a URL names its task). */
interface Asked {
  key: string;
  prompt: string;
  schema?: unknown;
  url?: string;
}

/** waitfor always sends the content of an accept ({} for a URL); ext-tasks omits it there. */
const normalized = (response: Json): Json =>
  response.action === 'accept' ? { content: {}, ...response } : response;

/** Every answer the server received for a task (merged over its tasks/update requests), per key. */
function answersReceived(server: TasksServer, taskId: string): Record<string, Json[]> {
  const received: Record<string, Json[]> = {};
  for (const entry of server.log) {
    if (entry.method !== 'tasks/update' || entry.params.taskId !== taskId) continue;
    const responses = entry.params.inputResponses as Record<string, Json>;
    for (const [key, response] of Object.entries(responses)) {
      (received[key] ??= []).push(normalized(response));
    }
  }
  return received;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

const updatesAfter = (server: TasksServer, from: number, taskId: string) =>
  server.log
    .slice(from)
    .filter((entry) => entry.method === 'tasks/update' && entry.params.taskId === taskId);

/**
 * ext-tasks on `hold`, cancelled by the server while its question is open: the handler is held
 * until `release` resolves (the person answers late). Resolves once the question is asked.
 */
async function holdThroughExtTasks(release: Promise<void>) {
  const asked = deferred<{ taskId: string; signal: AbortSignal | undefined }>();
  const host = await openExtTasks(server.url, async (_request, context) => {
    asked.resolve({ taskId: context.taskId ?? '', signal: context.signal });
    await release;
    return { action: 'cancel' } as never;
  });
  const execution = await host.session.callTool('hold', {});
  const settled = execution.settle().finally(() => host.close());
  return { ...(await asked.promise), settled };
}

const byKey = (asked: Asked[]) => [...asked].sort((x, y) => x.key.localeCompare(y.key));
const textOf = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

let server: TasksServer;
beforeAll(async () => {
  server = await startTasksServer({ pollInterval: 50 });
});
afterAll(async () => {
  await server.close();
});

/** Run `tool` through ext-tasks: what it delivered, the task it drove, the final result. */
async function throughExtTasks(tool: string) {
  const asked: Asked[] = [];
  const host = await openExtTasks(server.url, async (request, context) => {
    const key = context.inputId ?? '';
    const params = request.params as Json;
    asked.push({
      key,
      prompt: String(params.message),
      ...(params.mode === 'url'
        ? { url: String(params.url).replace(context.taskId ?? '', '<task>') }
        : { schema: params.requestedSchema }),
    });
    return script[key] as never;
  });
  try {
    return { asked, ...(await host.call(tool)) };
  } finally {
    await host.close();
  }
}

/** Run `tool` through waitfor's connect + callTool: what the person was asked, task, result. */
async function throughWaitfor(tool: string) {
  const asked: Asked[] = [];
  const origins: Json[] = [];
  const connection = await connect(
    { url: server.url },
    {
      era: 'modern',
      waitFor: async (request) => {
        const origin = (request.data?.origin ?? {}) as Json;
        const key = String(origin.inputKey);
        origins.push(origin);
        asked.push({
          key,
          prompt: request.prompt,
          ...(request.url === undefined
            ? { schema: request.data?.schema }
            : { url: request.url.replace(String(origin.taskId), '<task>') }),
        });
        return answerOf(request, key);
      },
    },
  );
  try {
    const result = await connection.callTool({ name: tool, arguments: {} });
    return { asked, origins, result, taskId: String(origins[0]?.taskId) };
  } finally {
    await connection.close();
  }
}

const tools = ['ask_region', 'ask_three', 'ask_twice'];

describe('ext-tasks 0.2.2 on the Tasks fixture (the reference half)', () => {
  test.for(tools)(
    '%s: ext-tasks delivers each key once and its answers reach the server',
    async (tool) => {
      const ext = await throughExtTasks(tool);
      const keys = ext.asked.map((asked) => asked.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(Object.keys(answersReceived(server, ext.taskId)).sort()).toEqual([...keys].sort());
      for (const key of keys) {
        expect(answersReceived(server, ext.taskId)[key]).toEqual([normalized({ ...script[key] })]);
      }
      expect(textOf(ext.result)).toMatch(/=/);
    },
  );

  test('hold, cancelled by the server while its question is open: ext-tasks leaves the question open and later sends its answer to the cancelled task', async () => {
    const release = deferred<void>();
    const ext = await holdThroughExtTasks(release.promise);
    server.cancelTask(ext.taskId);
    const cancelledAt = server.log.length;
    release.resolve();
    const { outcome } = await ext.settled;
    expect(outcome.status).toBe('cancelled');
    expect(updatesAfter(server, cancelledAt, ext.taskId)).toHaveLength(1);
  });
});

describe('waitfor and ext-tasks side by side on the Tasks fixture', () => {
  test.for(tools)(
    '%s: every question ext-tasks delivers, waitfor delivers; same answers reach the server',
    async (tool) => {
      const ext = await throughExtTasks(tool);
      const ours = await throughWaitfor(tool);

      // The same questions: keys, prompts, schemas / URLs (the person's view of the params).
      expect(byKey(ours.asked)).toEqual(byKey(ext.asked));
      for (const origin of ours.origins) {
        expect(origin).toMatchObject({ tool, taskId: ours.taskId, server: expect.any(String) });
      }

      // The same answers reached the server, each key answered once.
      const theirs = answersReceived(server, ext.taskId);
      const mine = answersReceived(server, ours.taskId);
      expect(mine).toEqual(theirs);
      for (const answers of Object.values(mine)) expect(answers).toHaveLength(1);

      // And the same final result.
      expect(textOf(ours.result)).toBe(textOf(ext.result));
    },
  );

  test('hold, cancelled by the server while its question is open: waitfor ends the question and tells the person; ext-tasks does not', async () => {
    const release = deferred<void>();
    const ext = await holdThroughExtTasks(release.promise);
    const asked = deferred<{ taskId: string; signal: AbortSignal | undefined }>();
    const connection = await connect(
      { url: server.url },
      {
        era: 'modern',
        waitFor: (request, context) => {
          const origin = (request.data?.origin ?? {}) as Json;
          asked.resolve({ taskId: String(origin.taskId), signal: context?.signal as AbortSignal });
          return new Promise<Answer>(() => {});
        },
      },
    );
    try {
      const call = connection.callTool({ name: 'hold', arguments: {} });
      const ours = await asked.promise;
      const cancelledAt = server.log.length;
      server.cancelTask(ours.taskId);
      server.cancelTask(ext.taskId);
      await expect(call).rejects.toMatchObject({ code: 'task_cancelled' });
      // waitfor's question ended with a reason for the person, and no answer went to the task.
      expect(ours.signal?.aborted).toBe(true);
      expect(String(ours.signal?.reason)).toMatch(/cancel/i);
      expect(updatesAfter(server, cancelledAt, ours.taskId)).toEqual([]);
      // By then ext-tasks' question is still open: its handler was never told.
      expect(ext.signal?.aborted).toBe(false);
    } finally {
      release.resolve();
      await ext.settled;
      await connection.close();
    }
  });
});
