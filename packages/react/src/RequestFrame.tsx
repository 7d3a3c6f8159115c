'use client';
import type { ReactNode } from 'react';
import { cancel } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { useAnswerFailure } from './answerFailure.js';
import type { AnswerFailure } from './answerFailure.js';
import { classNames } from './classNames.js';
import { closedNote, useEnded } from './closedNote.js';
import { Countdown } from './Countdown.js';
import { useLocalization } from './localization.js';
import { serverLabel } from './serverLabel.js';
import type { RequestViewStatus } from './useRequestView.js';

/**
 * "<server> asks:" with the server's name its own element (a stylesheet or a test finds it)
 * wherever the translation puts it.
 */
export function ServerLine({ server }: { server: string }) {
  const { text } = useLocalization();
  const [before, after = ''] = text('asks', { server: '\0' }).split('\0');
  return (
    <p className="waitfor-server">
      {before}
      <strong data-waitfor-server="">{server}</strong>
      {after}
    </p>
  );
}

/**
 * Why this page's last answer did not go through, when it is still worth answering again: not
 * sent (kept here to send again), refused with field errors (on the fields), or refused with the
 * server's reason.
 */
function FailureNote({ failure }: { failure: AnswerFailure }) {
  const { text } = useLocalization();
  const words =
    failure.code === 'invalid_form' && failure.errors !== undefined
      ? text('refusedFields')
      : failure.code === 'unavailable'
        ? text('notSent')
        : text('notAccepted', { error: failure.message });
  return (
    <p role="alert" className="waitfor-error waitfor-answer-error">
      {words}
    </p>
  );
}

/** Props of RequestFrame. */
export interface RequestFrameProps {
  request: Request;
  status: RequestViewStatus;
  /** How the view settles its Request: Escape inside the open question cancels through it. */
  settle?: (answer: Answer) => boolean;
  className?: string;
  children?: ReactNode;
  /** Shows Dismiss under the "answered elsewhere" note of a closed Request (see AnsweredElsewhere). */
  onDismiss?: () => void;
}

/**
 * The common outside of every view: who asks, what (a heading of the provider's level), and until
 * when. Renders nothing once this view answered, and a note of what happened when the Request
 * was settled elsewhere or this page's answer lost the race: answered elsewhere (by whom, where
 * the host says), expired, the asker no longer needs it, or — when nobody can say — no longer
 * open. When this page's last answer did not go through, says why above the controls.
 * Escape anywhere inside an open question cancels it (through `settle`).
 */
export function RequestFrame({
  request,
  status,
  settle,
  className,
  children,
  onDismiss,
}: RequestFrameProps) {
  const { text, headingLevel } = useLocalization();
  const failure = useAnswerFailure(request.id);
  const closed = status === 'closed' || failure?.code === 'conflict';
  const ended = useEnded(request.id, closed && status !== 'answered', failure);
  if (status === 'answered') return null;
  const server = serverLabel(request, text('unknownServer'));
  const Heading = `h${headingLevel}` as const;
  return (
    <section
      className={classNames('waitfor-request', className)}
      aria-label={text('region', { server, prompt: request.prompt })}
      data-waitfor-kind={request.kind}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented && !closed && settle) {
          event.preventDefault();
          settle(cancel(request));
        }
      }}
    >
      <header className="waitfor-header">
        <ServerLine server={server} />
        {/* Focusable by script only: the list moves focus here after the previous answer. */}
        <Heading className="waitfor-prompt" tabIndex={-1}>
          {request.prompt}
        </Heading>
        <Countdown expiresAt={request.expiresAt} />
      </header>
      {closed ? (
        <>
          <p role="status" className="waitfor-closed">
            {closedNote(text, ended)}
          </p>
          {onDismiss ? (
            <div className="waitfor-actions">
              <button
                type="button"
                className="waitfor-button waitfor-dismiss"
                aria-label={text('action', {
                  action: text('dismiss'),
                  prompt: request.prompt,
                  server,
                })}
                onClick={onDismiss}
              >
                {text('dismiss')}
              </button>
            </div>
          ) : null}
        </>
      ) : (
        <>
          {failure === undefined ? null : <FailureNote failure={failure} />}
          {children}
        </>
      )}
    </section>
  );
}
