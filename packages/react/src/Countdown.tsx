'use client';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';
import { useCountdown } from './useCountdown.js';

/** Props of Countdown. */
export interface CountdownProps {
  expiresAt: string | undefined;
  className?: string;
}

/**
 * The time left to answer ("Expires in 5 minutes, at 14:32", through Intl in the provider's
 * locale); nothing when the Request has no deadline.
 */
export function Countdown({ expiresAt, className }: CountdownProps) {
  const countdown = useCountdown(expiresAt);
  const { text, relative, time } = useLocalization();
  if (countdown === undefined || expiresAt === undefined) return null;
  // The server and the browser read different clocks: the first client render may differ.
  return (
    <span
      role="timer"
      className={classNames('waitfor-countdown', className)}
      suppressHydrationWarning
    >
      {countdown.expired
        ? text('expired')
        : text('expires', {
            remaining: relative(countdown.remainingMs),
            time: time(new Date(expiresAt)),
          })}
    </span>
  );
}
