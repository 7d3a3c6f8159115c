/**
 * A host in a process of its own that asks one question and waits, for the kill -9 tests:
 * `tsx asker.ts <connection> <scope> <instance> <leaseMs>`. Prints `asked` once the question is
 * in the store, then waits until it is killed.
 */
import { createStore, postgresDriver } from '../index';

const [connectionString, scope, instance, leaseMs] = process.argv.slice(2);
const store = await createStore({
  driver: postgresDriver({ connectionString: connectionString! }),
  instance: instance!,
  leaseMs: Number(leaseMs),
  pollMs: 0,
});
const inbox = await store.inbox(scope!);
void inbox.waitFor({ id: 'held', kind: 'question', prompt: 'Still there?' });
await new Promise<void>((resolve) => {
  const check = (): void => {
    if (inbox.get('held')) resolve();
  };
  inbox.subscribe(check);
  check();
});
console.log('asked');
// Held open by the pending wait and the lease heartbeat: this process ends only when killed.
setInterval(() => {}, 60_000);
