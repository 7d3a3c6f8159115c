'use client';
import { useMemo, useSyncExternalStore } from 'react';
import type { Inbox, Request } from '@waitfor/core';
import { useInbox } from './WaitforProvider.js';

/**
 * A getSnapshot for one id that returns the very same value until the inbox's snapshot changes: an
 * inbox whose `get` builds a new object each time would otherwise re-render (or loop) forever, and a
 * change elsewhere yields the same stored Request object, so React bails out.
 */
function selectRequest(inbox: Inbox, id: string): () => Request | undefined {
  let seen: readonly Request[] | undefined;
  let selected: Request | undefined;
  return () => {
    const snapshot = inbox.getSnapshot();
    if (snapshot !== seen) {
      seen = snapshot;
      selected = inbox.get(id);
    }
    return selected;
  };
}

/**
 * One open Request by id, or undefined once it is settled (or was never asked). Re-renders only
 * when this Request arrives or leaves, not when others change.
 */
export function useRequest(id: string): Request | undefined {
  const inbox = useInbox();
  const select = useMemo(() => selectRequest(inbox, id), [inbox, id]);
  return useSyncExternalStore(inbox.subscribe, select, select);
}
