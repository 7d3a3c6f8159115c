'use client';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';

/** Props of CallProgress: a call's latest progress notification, as plain data. */
export interface CallProgressProps {
  /** Work done so far; a value that is not a finite number of 0 or more shows as unknown. */
  progress: number | undefined;
  /** Work in all, when known (then the bar is determinate). */
  total?: number | undefined;
  /** The server's note on what it is doing. */
  message?: string | undefined;
  /** The bar's accessible name (e.g. the tool's name); "Progress" unless told. */
  label?: string;
  className?: string;
}

/**
 * A call's progress: a native progress bar (indeterminate without a total), "3 of 10" or
 * "3 done" in the provider's locale, and the server's message.
 */
export function CallProgress({ progress, total, message, label, className }: CallProgressProps) {
  const { text, number } = useLocalization();
  // Both come from a server: a value that is not a finite number is unknown, and so is a total
  // below the progress (a full bar for unfinished work).
  const done = Number.isFinite(progress) && progress! >= 0 ? progress : undefined;
  const all = Number.isFinite(total) && total! >= (done ?? Infinity) ? total : undefined;
  return (
    <div className={classNames('waitfor-progress', className)}>
      <progress
        className="waitfor-progress-bar"
        aria-label={label ?? text('progress')}
        value={all === undefined ? undefined : done}
        max={all}
      />
      {done === undefined ? null : (
        <span className="waitfor-progress-text">
          {all === undefined
            ? text('progressDone', { progress: number(done) })
            : text('progressOf', { progress: number(done), total: number(all) })}
        </span>
      )}
      {message ? <p className="waitfor-progress-message">{message}</p> : null}
    </div>
  );
}
