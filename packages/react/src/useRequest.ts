'use client';
import { useMemo, useSyncExternalStore } from 'react';
import type { Request } from '@waitfor/core';
import { useInbox } from './WaitforProvider.js';

/**
 * One open Request by id, or undefined once it is settled (or was never asked). Re-renders only
 * when this Request arrives or leaves, not when others change.
 */
export function useRequest(id: string): Request | undefined {
  const inbox = useInbox();
  const select = useMemo(() => {
    // Remember the answer per inbox snapshot: between changes the selector returns the very same
    // value, and a change elsewhere yields the same stored Request object, so React bails out.
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
  }, [inbox, id]);
  return useSyncExternalStore(inbox.subscribe, select, select);
}
