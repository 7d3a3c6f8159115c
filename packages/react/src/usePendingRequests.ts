'use client';
import { useSyncExternalStore } from 'react';
import type { Request } from '@waitfor/core';
import { useInbox } from './WaitforProvider.js';

/** The open Requests of the inbox, in arrival order; a new array only when one arrives or settles. */
export function usePendingRequests(): readonly Request[] {
  const inbox = useInbox();
  // The inbox keeps the same array until something changes, so it serves as its own snapshot on
  // the server too.
  return useSyncExternalStore(inbox.subscribe, inbox.getSnapshot, inbox.getSnapshot);
}
