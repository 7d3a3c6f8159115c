import { CallProgress } from '@waitfor/react';
import type { CallNote, CallStatus } from '../calls/callRuns.js';
import { hostName } from '../hostTool/hostTools.js';
import { callKey } from './callQuestions.js';
import { usePageText } from './locales/usePageText.js';

/** One call as the log shows it, in either mode. */
export interface CallEntry {
  id: string | number;
  server: string;
  tool: string;
  title: string;
  status: CallStatus;
  /** 1 for the first run; each Retry runs the same call again under the same entry. */
  attempt: number;
  text?: string;
  note?: CallNote;
  /** The server's latest progress while it runs (the hosted mode's host reports it). */
  progress?: { progress: number; total?: number; message?: string };
}

/** Who runs a call, in the page's language ("This app" is the page's own word). */
export function useOwnerName() {
  const say = usePageText();
  return (owner: string) => (owner === hostName ? say('thisApp') : owner);
}

/** The page text key of each call status (both modes). */
export const statusKey = {
  running: 'running_',
  done: 'done',
  declined: 'declined',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

/** "Cancel call" for a running call (both modes): it stops the whole call. */
export function CancelCall({
  title,
  onCancel,
  unavailable = false,
}: {
  title: string;
  onCancel(): void;
  /** Set while whoever runs the call cannot be reached: Cancel would go nowhere. */
  unavailable?: boolean;
}) {
  const say = usePageText();
  return (
    <div className="call-actions">
      <button
        type="button"
        className="secondary"
        aria-label={say('cancelCallLabel', { tool: title })}
        aria-disabled={unavailable || undefined}
        onClick={() => {
          if (!unavailable) onCancel();
        }}
      >
        {say('cancelCall')}
      </button>
    </div>
  );
}

/** Props of CallLog. */
export interface CallLogProps<Entry extends CallEntry> {
  calls: readonly Entry[];
  /** Tools with a call running (by call key): a Retry of another entry waits for it. */
  busy: ReadonlySet<string>;
  /** Aborts a running call (the server may never finish, e.g. a sign-in left open). */
  onCancel(id: Entry['id']): void;
  /** Runs a finished call again. */
  onRetry(call: Entry): void;
  /** Set while Run and Retry cannot reach whoever runs the calls (the hosted mode's host is down). */
  unavailable?: boolean;
}

/**
 * Every tool call of this page, newest first, with its result once it is answered, and the manual
 * controls the spec asks for: Cancel while a call runs, Retry once it was declined, failed or was
 * cancelled (a person may change their mind, so a declined call reads the same for every tool).
 */
export function CallLog<Entry extends CallEntry>({
  calls,
  busy,
  onCancel,
  onRetry,
  unavailable = false,
}: CallLogProps<Entry>) {
  const say = usePageText();
  const ownerName = useOwnerName();
  if (calls.length === 0) return <p className="empty">{say('nothingRun')}</p>;
  return (
    <ol className="calls">
      {calls.map((call) => (
        <li key={call.id} className={`call call-${call.status}`} data-tool={call.tool}>
          <div className="call-head">
            <span>
              <strong>{ownerName(call.server)}</strong> · {call.title}
              {call.attempt > 1 ? (
                <span className="attempt">{say('attempt', { attempt: call.attempt })}</span>
              ) : null}
            </span>
            <span className="status">{say(statusKey[call.status])}</span>
          </div>
          {call.status === 'running' && call.progress !== undefined ? (
            <CallProgress
              progress={call.progress.progress}
              total={call.progress.total}
              message={call.progress.message}
              label={say('progress', { tool: call.title })}
            />
          ) : null}
          {call.text !== undefined || call.note !== undefined ? (
            <p className="call-text">
              {call.note === undefined
                ? call.text
                : say(call.note, { server: ownerName(call.server) })}
            </p>
          ) : null}
          {/* "Cancel call" stops the whole call; a question's own Cancel only answers that question. */}
          {call.status === 'running' ? (
            <CancelCall
              title={call.title}
              onCancel={() => onCancel(call.id)}
              unavailable={unavailable}
            />
          ) : null}
          {call.status === 'failed' || call.status === 'cancelled' || call.status === 'declined' ? (
            <div className="call-actions">
              <button
                type="button"
                className="secondary"
                data-starts-call=""
                aria-label={say('retryLabel', { tool: call.title })}
                aria-disabled={
                  unavailable || busy.has(callKey(call.server, call.tool)) || undefined
                }
                onClick={() => {
                  if (!unavailable && !busy.has(callKey(call.server, call.tool))) onRetry(call);
                }}
              >
                {say('retry')}
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
