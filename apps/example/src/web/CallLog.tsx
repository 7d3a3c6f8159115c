import type { CallState } from './useExampleSession.js';

const statusText = {
  running: 'waiting…',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

/** Props of CallLog. */
export interface CallLogProps {
  calls: CallState[];
  /** Aborts a running call (the server may never finish, e.g. a sign-in left open). */
  onCancel(id: number): void;
  /** Runs a failed or cancelled call again. */
  onRetry(call: CallState): void;
}

/**
 * Every tool call of this page, newest first, with its result once it is answered, and the manual
 * controls the spec asks for: Cancel while a call runs, Retry once it failed or was cancelled.
 */
export function CallLog({ calls, onCancel, onRetry }: CallLogProps) {
  if (calls.length === 0) return <p className="empty">Nothing run yet.</p>;
  return (
    <ol className="calls">
      {calls.map((call) => (
        <li key={call.id} className={`call call-${call.status}`} data-tool={call.tool}>
          <div className="call-head">
            <span>
              <strong>{call.server}</strong> · {call.title}
              {call.attempt > 1 ? <span className="attempt"> · attempt {call.attempt}</span> : null}
            </span>
            <span className="status">{statusText[call.status]}</span>
          </div>
          {call.text !== undefined ? <p className="call-text">{call.text}</p> : null}
          {/* "Cancel call" stops the whole call; a question's own Cancel only answers that question. */}
          {call.status === 'running' ? (
            <div className="call-actions">
              <button
                type="button"
                className="secondary"
                aria-label={`Cancel call: ${call.title}`}
                onClick={() => onCancel(call.id)}
              >
                Cancel call
              </button>
            </div>
          ) : null}
          {call.status === 'failed' || call.status === 'cancelled' ? (
            <div className="call-actions">
              <button
                type="button"
                className="secondary"
                aria-label={`Retry: ${call.title}`}
                onClick={() => onRetry(call)}
              >
                Retry
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
