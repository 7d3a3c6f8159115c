import { useMemo, useSyncExternalStore } from 'react';
import { createInbox } from '@waitfor/core';
import { createLegacySpec } from '@waitfor/legacy-spec';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { RequestList, WaitforProvider } from '@waitfor/react';
import { CallLog } from './CallLog.js';
import { HostPanel } from './HostPanel.js';
import { ServerPanel } from './ServerPanel.js';
import { stillWaiting } from './callQuestions.js';
import type { CallQuestions } from './callQuestions.js';
import { useExampleSession } from './useExampleSession.js';

/** One note per URL step the person consented to and is still finishing (see stillWaiting). */
function SignInWaits({ legacy, calls }: { legacy: LegacySpec; calls: readonly CallQuestions[] }) {
  const elicitations = useSyncExternalStore(
    legacy.subscribe,
    legacy.getSnapshot,
    legacy.getSnapshot,
  );
  const waiting = stillWaiting(elicitations, calls);
  if (waiting.length === 0) return null;
  return (
    <ul className="waits" aria-label="Waiting for you in the browser">
      {waiting.map((entry) => (
        <li key={entry.request.id}>
          <strong>{entry.server}</strong> is waiting for you to finish in the other tab:{' '}
          {entry.request.prompt}
        </li>
      ))}
    </ul>
  );
}

/**
 * The example page: both servers' tools and the app's own, one list of questions from either era
 * and from the app, and the results.
 */
export function App() {
  const inbox = useMemo(() => createInbox(), []);
  // Completion notifications settle a URL question that is still open (finished before consent).
  const legacy = useMemo(() => createLegacySpec({ inbox }), [inbox]);
  const session = useExampleSession(inbox, legacy);

  return (
    <WaitforProvider inbox={inbox}>
      <header className="top">
        <h1>waitfor example</h1>
        <p>
          Two MCP servers — one of the 2025 (legacy) era, one of the 2026 (modern) era — and a tool
          of this app itself ask you questions. The servers' clients run in this page; every
          question lands in one list.
        </p>
      </header>
      {session.loadError !== undefined ? (
        <p role="alert">Could not load the servers: {session.loadError}</p>
      ) : null}
      <main className="layout">
        <section className="servers" aria-label="Servers">
          {session.servers.map((server) => (
            <ServerPanel key={server.config.name} server={server} onCall={session.callTool} />
          ))}
          <HostPanel onCall={session.callTool} />
        </section>
        <section className="inbox" aria-label="Questions">
          <h2>Questions for you</h2>
          <SignInWaits legacy={legacy} calls={session.calls} />
          <div className="requests">
            <RequestList
              empty={<p className="empty">No open questions. Run a tool to get one.</p>}
            />
          </div>
        </section>
        <section className="results" aria-label="Results">
          <h2>Results</h2>
          <CallLog
            calls={session.calls}
            onCancel={session.cancelCall}
            onRetry={session.retryCall}
          />
        </section>
      </main>
    </WaitforProvider>
  );
}
