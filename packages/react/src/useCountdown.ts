'use client';
import { useEffect, useRef, useState } from 'react';

/** The time left before a deadline. */
export interface CountdownState {
  /** Milliseconds left, never below 0. */
  remainingMs: number;
  expired: boolean;
}

/** Options of useCountdown. */
export interface CountdownOptions {
  /** How often to tick; 1000 ms unless told. */
  intervalMs?: number;
  /** The clock; Date.now unless told. */
  now?: () => number;
}

/**
 * Counts down to an RFC 3339 `expiresAt`, ticking with setInterval until it passes. Undefined when
 * there is no deadline or it cannot be read.
 */
export function useCountdown(
  expiresAt: string | undefined,
  options: CountdownOptions = {},
): CountdownState | undefined {
  const intervalMs = options.intervalMs ?? 1000;
  const read = options.now ?? Date.now;
  // A ref, so an inline `now` function does not restart the timer on every render. It is brought up
  // to date after each render (never during one), before the timer's effect below runs.
  const clock = useRef(read);
  useEffect(() => {
    clock.current = read;
  });
  const deadline = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
  const [now, setNow] = useState(() => read());

  useEffect(() => {
    if (Number.isNaN(deadline)) return undefined;
    setNow(clock.current());
    if (clock.current() >= deadline) return undefined;
    const timer = setInterval(() => {
      const current = clock.current();
      setNow(current);
      if (current >= deadline) clearInterval(timer);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [deadline, intervalMs]);

  if (Number.isNaN(deadline)) return undefined;
  const remainingMs = Math.max(0, deadline - now);
  return { remainingMs, expired: remainingMs === 0 };
}
