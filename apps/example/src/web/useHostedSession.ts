import { useCallback, useEffect, useState } from 'react';
import type { HostedCall } from '../host/hostedCalls.js';
import type { HostedServer } from '../host/hostedSession.js';
import { errorText } from './resultText.js';

export type { HostedCall, HostedServer };

// How often the page reads the host's servers and calls (progress and states change on the host).
const pollMs = 500;

const read = async <Body>(path: string, signal: AbortSignal): Promise<Body> => {
  const response = await fetch(path, { signal, cache: 'no-store' });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as Body;
};

const post = async (path: string, body: unknown): Promise<void> => {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
};

/**
 * The hosted mode's servers and calls as the host reports them (`/api/servers`, `/api/calls`),
 * read again every half second, and Run and Cancel sent to it. A host that cannot be reached keeps
 * the last known lists and says so (`error`) until it answers again.
 */
export function useHostedSession() {
  const [servers, setServers] = useState<HostedServer[]>([]);
  const [calls, setCalls] = useState<HostedCall[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const [listed, called] = await Promise.all([
          read<{ servers: HostedServer[] }>('/api/servers', controller.signal),
          read<{ calls: HostedCall[] }>('/api/calls', controller.signal),
        ]);
        setServers(listed.servers);
        setCalls(called.calls);
        setError(undefined);
      } catch (failure) {
        if (!controller.signal.aborted) setError(errorText(failure));
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), pollMs);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [tick]);

  // After Run or Cancel the lists are read again at once (a fresh poll loop).
  const callTool = useCallback((server: string, tool: string) => {
    post('/api/calls', { server, tool }).then(
      () => setTick((count) => count + 1),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);
  const cancelCall = useCallback((id: string) => {
    post(`/api/calls/${encodeURIComponent(id)}/cancel`, {}).then(
      () => setTick((count) => count + 1),
      (failure: unknown) => setError(errorText(failure)),
    );
  }, []);

  return { servers, calls, error, callTool, cancelCall };
}
