'use client';
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { Inbox } from '@waitfor/core';
import { WaitforReactError } from './waitforReactError.js';

const InboxContext = createContext<Inbox | undefined>(undefined);

/** Props of WaitforProvider. */
export interface WaitforProviderProps {
  inbox: Inbox;
  children?: ReactNode;
}

/** Makes one core inbox available to every waitfor hook and component below it. */
export function WaitforProvider({ inbox, children }: WaitforProviderProps) {
  return <InboxContext.Provider value={inbox}>{children}</InboxContext.Provider>;
}

/** The inbox of the nearest WaitforProvider; throws a 'missing_provider' error without one. */
export function useInbox(): Inbox {
  const inbox = useContext(InboxContext);
  if (inbox === undefined) {
    throw new WaitforReactError(
      'missing_provider',
      'waitfor hooks and components need a <WaitforProvider inbox={…}> above them.',
    );
  }
  return inbox;
}
