import type { Driver } from './drivers/driver';
import type { QuestionStatements } from './sql';
import type { StoreError } from './storeError';
import { storeErrorOf } from './storeError';

/**
 * This host's lease in the database, and how long it has been in touch with it.
 *
 * A host's questions in memory (legacy-era elicitations, any `waitFor`) are closed for everyone once
 * its lease has run out for a whole grace period (one more lease). A host only closes others'
 * questions while it has itself been in touch with the database for a whole lease: after an outage,
 * every live host has then renewed its lease at least once (each renews every third of it), so a
 * sweep that runs first after the database comes back never takes a living host for dead.
 */
export class HostLease {
  private lastRenewed: number | undefined;
  private touchSince: number | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly sql: QuestionStatements,
    readonly instance: string,
    readonly leaseMs: number,
    private readonly clock: () => number,
  ) {}

  /** Renews the lease now; rejects (and counts as out of touch) when the database cannot be reached. */
  async renew(): Promise<void> {
    try {
      await this.driver.query(this.sql.renewInstance, [this.instance, this.leaseMs]);
    } catch (error) {
      this.touchSince = undefined;
      throw storeErrorOf(error);
    }
    const now = this.clock();
    // A gap longer than the lease is an outage too, even if no heartbeat failed in it.
    if (
      this.touchSince === undefined ||
      this.lastRenewed === undefined ||
      now - this.lastRenewed > this.leaseMs
    )
      this.touchSince = now;
    this.lastRenewed = now;
  }

  /** True once this host has been in touch with the database for a whole lease without a gap. */
  steady(): boolean {
    return this.touchSince !== undefined && this.clock() - this.touchSince >= this.leaseMs;
  }

  /** Renews every third of the lease until `stop`; failures go to `report`. */
  start(report: (error: StoreError) => void): void {
    this.heartbeat = setInterval(() => {
      this.renew().catch(report);
    }, this.leaseMs / 3);
    this.heartbeat.unref?.();
  }

  stop(): void {
    clearInterval(this.heartbeat);
  }
}
