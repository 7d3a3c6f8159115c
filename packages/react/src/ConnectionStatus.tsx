'use client';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';

/** Where a host's connection to one server stands. */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

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
