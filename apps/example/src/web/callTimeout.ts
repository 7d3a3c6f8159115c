import type { Connection } from '@waitfor/mcp-bridge';

// A legacy-era call stays open while the person finishes a URL step in another tab (link_account
// waits for the sign-in after consent). The bridge pauses its timer only while a question is open,
// so these calls get a person-sized budget. Modern-era budgets are per wire leg and stay short.
const legacyCallTimeoutMs = 10 * 60_000;

/** The time budget to pass to `connection.callTool` for this connection's era. */
export function callTimeout(connection: Pick<Connection, 'era'>): number | undefined {
  return connection.era === 'legacy' ? legacyCallTimeoutMs : undefined;
}
