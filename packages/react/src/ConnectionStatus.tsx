'use client';
import type { ConnectionState } from '@waitfor/core';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';

// Core's one type for where a link stands (the bridge's connection, http's remote inbox).
export type { ConnectionState };

/** Props of ConnectionStatus: plain data, so it fits any transport. */
export interface ConnectionStatusProps {
  /** The server's name as shown to the person. */
  server: string;
  state: ConnectionState;
  className?: string;
}

/**
 * One server's connection state as a polite status line ("Reconnecting to Travel Desk…");
 * `data-waitfor-state` carries the state for a stylesheet.
 */
export function ConnectionStatus({ server, state, className }: ConnectionStatusProps) {
  const { text } = useLocalization();
  return (
    <p
      role="status"
      className={classNames('waitfor-connection', className)}
      data-waitfor-state={state}
    >
      {text(state === 'closed' ? 'disconnected' : state, { server })}
    </p>
  );
}
