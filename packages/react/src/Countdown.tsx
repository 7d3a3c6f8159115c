'use client';
import { formatRemaining, useCountdown } from './useCountdown.js';

/** Props of Countdown. */
export interface CountdownProps {
  expiresAt: string | undefined;
}

/** The time left to answer, as text; nothing when the Request has no deadline. */
export function Countdown({ expiresAt }: CountdownProps) {
  const countdown = useCountdown(expiresAt);
  if (countdown === undefined) return null;
  // The server and the browser read different clocks: the first client render may differ.
  return (
    <span role="timer" suppressHydrationWarning>
      {countdown.expired ? 'Expired' : `Expires in ${formatRemaining(countdown.remainingMs)}`}
    </span>
  );
}
