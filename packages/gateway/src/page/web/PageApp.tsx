import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Request } from '@waitfor/core';
import type { createRemoteInbox } from '@waitfor/http/client';
import { ConnectionStatus, RequestList, WaitforProvider } from '@waitfor/react';

type RemoteInbox = ReturnType<typeof createRemoteInbox>;

// Withdrawn questions shown at once, the newest (older ones drop off).
const maxWithdrawn = 20;

/**
 * The questions that left the list without an answer from this page: the call that asked them
 * ended first (the host cancelled it or timed out, or the question expired). Answers given here
 * are tracked, so only the others count.
 */
function useWithdrawn(inbox: RemoteInbox) {
  const answeredHere = useRef(new Set<string>());
  const [withdrawn, setWithdrawn] = useState<Request[]>([]);
  useEffect(() => {
    let last = inbox.getSnapshot();
    return inbox.subscribe(() => {
      const now = inbox.getSnapshot();
      const open = new Set(now.map((request) => request.id));
      const gone = last.filter(
        (request) => !open.has(request.id) && !answeredHere.current.has(request.id),
      );
      last = now;
      if (gone.length > 0) setWithdrawn((shown) => [...gone, ...shown].slice(0, maxWithdrawn));
    });
  }, [inbox]);
  const tracked = useMemo<RemoteInbox>(
    () => ({
      ...inbox,
      answer: (answer) => {
        answeredHere.current.add(answer.id);
        return inbox.answer(answer);
      },
      submit: (answer) => {
        answeredHere.current.add(answer.id);
        return inbox.submit(answer);
      },
    }),
    [inbox],
  );
  const dismiss = (id: string) => setWithdrawn((shown) => shown.filter((each) => each.id !== id));
  return { tracked, withdrawn, dismiss };
}

/** The gateway's page: the questions the host could not ask, answered here. */
export function PageApp({ inbox }: { inbox: RemoteInbox }) {
  const { tracked, withdrawn, dismiss } = useWithdrawn(inbox);
  const state = useSyncExternalStore(inbox.subscribeConnection, inbox.getConnectionState);
  return (
    <WaitforProvider inbox={tracked} headingLevel={2}>
      <main>
        <header>
          <h1>Questions for you</h1>
          <p>
            Your MCP host cannot ask these itself, so the gateway asks here. The tool call waits
            until you answer.
          </p>
          <ConnectionStatus server="The gateway" state={state} />
        </header>
        <RequestList empty={<p className="empty">Nothing waits for you right now.</p>} />
        {withdrawn.length > 0 && (
          <section aria-label="Withdrawn questions">
            <ul className="withdrawn">
              {withdrawn.map((request) => (
                <li key={request.id} role="status" data-withdrawn={request.id}>
                  <span>
                    Withdrawn: <q>{request.prompt}</q> — the call that asked it ended (cancelled,
                    timed out or expired) before an answer. Nothing was sent.
                  </span>
                  <button type="button" onClick={() => dismiss(request.id)}>
                    Dismiss
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </main>
    </WaitforProvider>
  );
}
