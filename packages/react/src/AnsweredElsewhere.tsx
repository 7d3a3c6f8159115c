'use client';
import type { Request } from '@waitfor/core';
import { useAnswerFailure } from './answerFailure.js';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';
import { requestServer } from './requestServer.js';
import { ClosedNote, ServerLine } from './RequestFrame.js';

/** Props of AnsweredElsewhere. */
export interface AnsweredElsewhereProps {
  /** A question this page answered too late (see useDepartedRequests). */
  request: Request;
  /** Takes the note away. */
  onDismiss(): void;
  className?: string;
}

/**
 * What a question shows after this page's answer lost the race: who asked and what, "Answered
 * elsewhere" (by whom, where the host says), and Dismiss.
 */
export function AnsweredElsewhere({ request, onDismiss, className }: AnsweredElsewhereProps) {
  const { text, headingLevel } = useLocalization();
  const failure = useAnswerFailure(request.id);
  const server = requestServer(request, text('unknownServer'));
  const Heading = `h${headingLevel}` as const;
  return (
    <section
      className={classNames('waitfor-request waitfor-departed', className)}
      aria-label={text('region', { server, prompt: request.prompt })}
      data-waitfor-kind={request.kind}
    >
      <header className="waitfor-header">
        <ServerLine server={server} />
        <Heading className="waitfor-prompt" tabIndex={-1}>
          {request.prompt}
        </Heading>
      </header>
      <ClosedNote failure={failure} />
      <div className="waitfor-actions">
        <button
          type="button"
          className="waitfor-button waitfor-dismiss"
          aria-label={text('action', { action: text('dismiss'), prompt: request.prompt, server })}
          onClick={onDismiss}
        >
          {text('dismiss')}
        </button>
      </div>
    </section>
  );
}
