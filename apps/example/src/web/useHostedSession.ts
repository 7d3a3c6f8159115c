import { useCallback, useEffect, useState } from 'react';
import { followEventStream } from '@waitfor/http/client';
import type { ConnectionState } from '@waitfor/http/client';
import type { AgentState } from '../agent/agentChat.js';
import type { HostedCall } from '../host/hostedCalls.js';
import type { HostedServer } from '../host/hostedSession.js';
import { errorText } from './resultText.js';

export type { AgentState, HostedCall, HostedServer };

const idleAgent: AgentState = { status: 'idle', entries: [] };

/** Where the host's event stream lives (`GET /api/events`, next to the inbox's). */
const eventsUrl = '/api/events';

const post = async (path: string, body: unknown): Promise<void> => {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
};

/**
 * The hosted mode's servers and calls as the host reports them: one event stream (`/api/events`)
 * followed as the question inbox's is, with its backoff, and Run, Retry and Cancel sent to the
 * host. While the host cannot be reached, `link` is not `connected` and the last known lists stay.
 */
export function useHostedSession() {
  const [servers, setServers] = useState<HostedServer[]>([]);
  const [calls, setCalls] = useState<HostedCall[]>([]);
  const [agent, setAgent] = useState<AgentState>(idleAgent);
  const [error, setError] = useState<string | undefined>(undefined);
  const [link, setLink] = useState<ConnectionState>('connecting');

  useEffect(() => {
    const followed = followEventStream({ url: eventsUrl }, (event, data) => {
      if (event !== 'state') return;
      const state = data as {
        servers?: HostedServer[];
        calls?: HostedCall[];
        agent?: AgentState;
      } | null;
      setServers(Array.isArray(state?.servers) ? state.servers : []);
      setCalls(Array.isArray(state?.calls) ? state.calls : []);
      setAgent(Array.isArray(state?.agent?.entries) ? state.agent : idleAgent);
      setError(undefined);
    });
    const unsubscribe = followed.subscribeConnection(() => setLink(followed.getConnectionState()));
    return () => {
      unsubscribe();
      followed.close();
    };
  }, []);

  const send = useCallback((path: string) => {
    post(path, {}).catch((failure: unknown) => setError(errorText(failure)));
  }, []);
  const callTool = useCallback((server: string, tool: string) => {
    post('/api/calls', { server, tool }).catch((failure: unknown) => setError(errorText(failure)));
  }, []);
  const cancelCall = useCallback(
    (id: string) => send(`/api/calls/${encodeURIComponent(id)}/cancel`),
    [send],
  );
  const retryCall = useCallback(
    (id: string) => send(`/api/calls/${encodeURIComponent(id)}/retry`),
    [send],
  );

  const sendAgent = useCallback((text: string) => {
    post('/api/agent', { text }).catch((failure: unknown) => setError(errorText(failure)));
  }, []);
  const stopAgent = useCallback(() => send('/api/agent/stop'), [send]);

  return {
    servers,
    calls,
    agent,
    link,
    error,
    callTool,
    cancelCall,
    retryCall,
    sendAgent,
    stopAgent,
  };
}
