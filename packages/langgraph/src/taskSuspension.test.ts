/**
 * A task-backed tool (SEP-2663, the 2026-07-28 Tasks test server) inside a LangGraph run: the
 * task's open questions interrupt the run with a TaskSuspension (the task's reference, JSON in the
 * checkpoint), and `Command({ resume })` sends the answers with `tasks/update` — never a second
 * `tools/call` — until the task's result completes the node. A second status's question is a second
 * interrupt.
 */
import { accept, type Answer } from '@waitfor/core';
import { Command, MemorySaver } from '@langchain/langgraph';
import { connect, type Connection } from '@waitfor/mcp-bridge';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTasksServer, type TasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { toolGraph } from './__fixtures__/graph';
import { onlyInterrupt, threadConfig } from './__fixtures__/interrupts';
import { waitforInterrupts } from './index';

let server: TasksServer;
beforeAll(async () => {
  server = await startTasksServer({ pollInterval: 20 });
});
afterAll(async () => {
  await server.close();
});

const open: Connection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function neverAsked(): Promise<Answer> {
  throw new Error('a task question must interrupt the run, not reach waitFor');
}

async function connectToTasks(): Promise<Connection> {
  const connection = await connect({ url: server.url }, { waitFor: neverAsked, era: 'modern' });
  open.push(connection);
  return connection;
}

/** What the server received for one task, by method. */
const methodsOf = (taskId: string) =>
  server.log
    .filter((entry) => entry.params['taskId'] === taskId)
    .map((entry) => entry.method)
    .filter((method) => method !== 'tasks/get');

describe('a task-backed tool in a LangGraph run', () => {
  it('each status of questions is one interrupt; resumes go out as tasks/update; the result completes the node', async () => {
    const { graph, counter } = toolGraph(await connectToTasks(), new MemorySaver());
    const config = threadConfig();

    const first = onlyInterrupt(await graph.invoke({ tool: 'ask_twice' }, config));
    expect(first).toMatchObject({ type: 'waitfor', tool: 'ask_twice' });
    expect(first.suspension).toMatchObject({ kind: 'task', answered: [] });
    const taskId = (first.suspension as { taskId: string }).taskId;
    expect(first.requests.map((request) => request.prompt)).toEqual(['First?']);
    expect(first.requests[0]?.data?.origin).toMatchObject({ taskId, tool: 'ask_twice' });

    const second = onlyInterrupt(
      await graph.invoke(
        new Command({ resume: accept(first.requests[0]!, { first: 'x' }) }),
        config,
      ),
    );
    expect(second.requests.map((request) => request.prompt)).toEqual(['Second?']);
    expect(second.suspension).toMatchObject({ kind: 'task', taskId, answered: ['first'] });

    const done = await graph.invoke(
      new Command({ resume: accept(second.requests[0]!, { second: 'y' }) }),
      config,
    );
    expect(done.text).toBe('first=x, second=y');
    expect(waitforInterrupts(done)).toEqual([]);
    expect(counter.runs).toBe(3);
    // The one task ran to the end (every suspension named it); each answer went out once, as
    // tasks/update: the server saw nothing else for this task but its polls.
    expect(methodsOf(taskId)).toEqual(['tasks/update', 'tasks/update']);
  });

  it('three keys of one status are one interrupt; the answers reach the server together', async () => {
    const { graph } = toolGraph(await connectToTasks(), new MemorySaver());
    const config = threadConfig();
    const value = onlyInterrupt(await graph.invoke({ tool: 'ask_three' }, config));
    expect(value.requests.map((request) => request.prompt).sort()).toEqual([
      'Open the page to approve c.',
      'Value of a?',
      'Value of b?',
    ]);
    const answers = value.requests.map((request) =>
      request.kind === 'authorization'
        ? { id: request.id, ok: true }
        : accept(request, { [request.prompt === 'Value of a?' ? 'a' : 'b']: request.prompt }),
    );
    const done = await graph.invoke(new Command({ resume: answers }), config);
    expect(done.text).toBe('a=Value of a?, b=Value of b?, c=accept');
  });
});
