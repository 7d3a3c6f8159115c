/**
 * A host in a process of its own, for the race tests: `tsx answerer.ts <connection> <scope> <name>
 * <count>`. It waits until its inbox lists `count` questions (learned by NOTIFY), prints `ready`,
 * and on a line `go` on stdin answers all of them at once; then prints one JSON line
 * `{ [id]: won }` and exits.
 */
import { createInterface } from 'node:readline';
import { accept } from '@waitfor/core';
import { createStore, postgresDriver } from '../index';

const [connectionString, scope, name, count] = process.argv.slice(2);
const store = await createStore({
  driver: postgresDriver({ connectionString: connectionString!, max: 20 }),
  instance: name!,
  pollMs: 0,
});
const inbox = await store.inbox(scope!, { answeredBy: name! });
await new Promise<void>((resolve) => {
  const check = (): void => {
    if (inbox.getSnapshot().length >= Number(count)) resolve();
  };
  inbox.subscribe(check);
  check();
});
const questions = inbox.getSnapshot();
console.log('ready');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line === 'go') break;
const outcomes = await Promise.all(
  questions.map((request) => inbox.submit(accept(request, { by: name! }))),
);
console.log(
  JSON.stringify(Object.fromEntries(questions.map((request, i) => [request.id, outcomes[i]]))),
);
await store.close();
