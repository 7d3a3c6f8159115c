'use client';
import { createContext, useContext, useMemo } from 'react';
import type { ReactNode } from 'react';
import type { Inbox } from '@waitfor/core';
import { LocalizationContext, localize } from './localization.js';
import type { LocalizationOptions } from './localization.js';
import { WaitforReactError } from './waitforReactError.js';

const InboxContext = createContext<Inbox | undefined>(undefined);

/** Props of WaitforProvider. */
export interface WaitforProviderProps extends LocalizationOptions {
  inbox: Inbox;
  children?: ReactNode;
}

/**
 * Makes one core inbox available to every waitfor hook and component below it, with the texts
 * (`messages`, a partial set over the English defaults), the `locale` for numbers and times, the
 * prompt's `headingLevel` and a `translateFieldError` for core's validation messages.
 */
export function WaitforProvider({ inbox, children, ...options }: WaitforProviderProps) {
  const { messages, locale, headingLevel, translateFieldError } = options;
  // Built from the four options, not the rest object, which is new on every render.
  const localization = useMemo(
    () => localize({ messages, locale, headingLevel, translateFieldError }),
    [messages, locale, headingLevel, translateFieldError],
  );
  return (
    <InboxContext.Provider value={inbox}>
      <LocalizationContext.Provider value={localization}>{children}</LocalizationContext.Provider>
    </InboxContext.Provider>
  );
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
