/**
 * Resume an interrupted run in a separate process: reads `{ serverUrl, postgresUrl, threadId, data }`
 * as JSON on stdin, builds the same graph over a fresh modern-era connection and a fresh
 * PostgreSQL checkpointer, reads the pending interrupt from the checkpoint, answers each of its
 * Requests with `data[request.prompt]`, resumes, and prints `{ text, runs, requests }` as JSON.
 */
import { Command } from '@langchain/langgraph';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { Answer } from '@waitfor/core';
import { connect } from '@waitfor/mcp-bridge';
import { isWaitforInterrupt, type WaitforInterrupt } from '../index';
import { toolGraph } from './graph';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const { serverUrl, postgresUrl, threadId, data } = JSON.parse(input) as {
  serverUrl: string;
  postgresUrl: string;
  threadId: string;
  data: Record<string, Record<string, unknown>>;
};
const connection = await connect(
  { url: serverUrl },
  {
    era: 'modern',
    waitFor: async () => {
      throw new Error('a resumed run is answered from the checkpoint, never through waitFor');
    },
  },
);
const checkpointer = PostgresSaver.fromConnString(postgresUrl);
try {
  const { graph, counter } = toolGraph(connection, checkpointer);
  const config = { configurable: { thread_id: threadId } };
  const pending = (await graph.getState(config)).tasks
    .flatMap((task) => task.interrupts)
    .map((item) => item.value)
    .filter(isWaitforInterrupt) as WaitforInterrupt[];
  const requests = pending.flatMap((value) => value.requests);
  const answers: Answer[] = requests.map((request) => ({
    id: request.id,
    ok: true,
    data: data[request.prompt] ?? {},
  }));
  const done = await graph.invoke(new Command({ resume: answers }), config);
  process.stdout.write(
    JSON.stringify({
      text: done.text,
      runs: counter.runs,
      requests: requests.map(({ id, prompt }) => ({ id, prompt })),
    }),
  );
} finally {
  await checkpointer.end();
  await connection.close();
}
