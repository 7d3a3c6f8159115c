import type { CallState } from './useExampleSession.js';

const statusText = { running: 'waiting…', done: 'done', failed: 'failed' } as const;

/** Every tool call of this page, newest first, with its result once it is answered. */
export function CallLog({ calls }: { calls: CallState[] }) {
  if (calls.length === 0) return <p className="empty">Nothing run yet.</p>;
  return (
    <ol className="calls">
      {calls.map((call) => (
        <li key={call.id} className={`call call-${call.status}`} data-tool={call.tool}>
          <div className="call-head">
            <span>
              <strong>{call.server}</strong> · {call.title}
            </span>
            <span className="status">{statusText[call.status]}</span>
          </div>
          {call.text !== undefined ? <p className="call-text">{call.text}</p> : null}
        </li>
      ))}
    </ol>
  );
}
