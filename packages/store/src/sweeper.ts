import type { CallStatements } from './calls/callSql';
import type { Driver } from './drivers/driver';
import type { HostLease } from './hostLease';
import type { Names } from './names';
import type { QuestionStatements } from './sql';
import { batchSize } from './sql';

/** What the sweeper needs from its store. */
export interface SweeperOptions {
  driver: Driver;
  sql: QuestionStatements;
  calls: CallStatements;
  names: Names;
  lease: HostLease;
  now: () => number;
  keepAnswerData: boolean;
  retainMs: number;
}

// A sweep ends at most this many batches of each kind; the rest is left for the next sweep.
const maxBatches = 10;

/**
 * The store's maintenance: expiry, orphans, retention. Many hosts may sweep at once; each statement
 * is safe alone (conditional on the state it leaves), and the sweep as a whole runs on one host at a
 * time (a transaction-scoped advisory lock: a host that does not get it skips, another is at it).
 */
export class Sweeper {
  constructor(private readonly options: SweeperOptions) {}

  /** Ends every open question past its expiry, of `scope` or of all scopes (null). */
  async expireDue(scope: string | null): Promise<void> {
    const { driver, sql, now, keepAnswerData } = this.options;
    const at = new Date(now()).toISOString();
    await this.batches(() => driver.query(sql.expireDue, [at, scope, keepAnswerData]));
  }

  /** Ends, at start, what this instance asked in memory in an earlier life. */
  async closePreviousLife(instance: string): Promise<void> {
    const { driver, sql, keepAnswerData } = this.options;
    await this.batches(() => driver.query(sql.closePreviousLife, [instance, keepAnswerData]));
  }

  /** The lease first, so this host never looks dead to itself; then the rest under the lock. */
  async sweep(): Promise<void> {
    const { driver, sql, calls, names, lease, now, keepAnswerData, retainMs } = this.options;
    await lease.renew();
    const at = new Date(now()).toISOString();
    await driver.transaction(async (tx) => {
      const [lock] = await tx.query(sql.trySweepLock, [names.schema]);
      if (lock?.locked !== true) return;
      await this.batches(() => tx.query(sql.expireDue, [at, null, keepAnswerData]));
      // Only a host that has been in touch for a whole lease may take another for gone.
      if (lease.steady())
        await this.batches(() => tx.query(sql.closeOrphans, [keepAnswerData, lease.leaseMs]));
      await tx.query(sql.deleteDeadInstances, [retainMs]);
      await tx.query(sql.deleteEnded, [retainMs]);
      await tx.query(calls.deleteEndedCalls, [retainMs]);
    });
  }

  /** Runs a batch statement again while it ended a whole batch, at most maxBatches times. */
  private async batches(run: () => Promise<Record<string, unknown>[]>): Promise<void> {
    for (let batch = 0; batch < maxBatches; batch++) {
      const [row] = await run();
      if (Number(row?.ended ?? 0) < batchSize) return;
    }
  }
}
