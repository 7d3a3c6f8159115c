/**
 * Durable through the graph's checkpointer: a run interrupted in this process, with its questions
 * and the bridge's suspension in a real PostgreSQL checkpointer (`@langchain/langgraph-checkpoint-
 * postgres`), is resumed in ANOTHER process, which completes the MCP call once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { connect } from '@waitfor/mcp-bridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsxBinary, useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { startPostgres, type PostgresServer } from '../../store/src/__fixtures__/postgresServer';
import { toolCalls, toolGraph } from './__fixtures__/graph';
import { waitforInterrupts } from './index';

const resumeChild = fileURLToPath(new URL('./__fixtures__/resumeChild.ts', import.meta.url));

const server = useDualEraServer();
let postgres: PostgresServer;
beforeAll(async () => {
  postgres = await startPostgres();
  await postgres.createDatabase('langgraph');
  const setup = PostgresSaver.fromConnString(postgres.url('langgraph'));
  await setup.setup(); // the checkpointer's tables
  await setup.end();
});
afterAll(async () => {
  await postgres?.destroy();
});

interface ChildOutput {
  text?: string;
  runs: number;
  requests: Array<{ id: string; prompt: string }>;
}

/** Run the resume child (sources resolved through the '@waitfor/source' condition). */
function resumeInChild(input: object): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsxBinary, ['--conditions', '@waitfor/source', resumeChild], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(output) as ChildOutput);
      } catch (error) {
        reject(new Error(`child exited ${code} printing ${output}`, { cause: error }));
      }
    });
    child.stdin.end(JSON.stringify(input));
  });
}

describe('a PostgreSQL checkpointer', () => {
  it('a run interrupted here is resumed in another process, which completes the MCP call once', async () => {
    const threadId = 'postgres-thread-1';
    const checkpointer = PostgresSaver.fromConnString(postgres.url('langgraph'));
    const connection = await connect(
      { url: server.url },
      {
        era: 'modern',
        waitFor: async () => {
          throw new Error('modern-era questions interrupt the run');
        },
      },
    );
    let asked: Array<{ id: string; prompt: string }>;
    try {
      const { graph } = toolGraph(connection, checkpointer);
      const first = await graph.invoke(
        { tool: 'fan_out', args: { count: 3 } },
        { configurable: { thread_id: threadId } },
      );
      const interrupts = waitforInterrupts(first);
      expect(interrupts).toHaveLength(1);
      asked = interrupts[0]!.value.requests.map(({ id, prompt }) => ({ id, prompt }));
      expect(asked.map((request) => request.prompt).sort()).toEqual([
        'Question q1',
        'Question q2',
        'Question q3',
      ]);
    } finally {
      // This process lets go of the run: its connection and its pool are closed.
      await connection.close();
      await checkpointer.end();
    }
    expect(toolCalls(server.received, 'fan_out')).toEqual({ legs: 1, answered: 0 });

    const resumed = await resumeInChild({
      serverUrl: server.url,
      postgresUrl: postgres.url('langgraph'),
      threadId,
      data: {
        'Question q1': { value: 'one' },
        'Question q2': { value: 'two' },
        'Question q3': { value: 'three' },
      },
    });
    // The child read the very Requests of the interrupt from PostgreSQL.
    expect(resumed.requests).toEqual(asked);
    expect(resumed.text).toBe(
      'q1=accept:{"value":"one"} q2=accept:{"value":"two"} q3=accept:{"value":"three"}',
    );
    // The node ran once in the child; the server was called once more, with the answers.
    expect(resumed.runs).toBe(1);
    expect(toolCalls(server.received, 'fan_out')).toEqual({ legs: 2, answered: 1 });
  });
});
