'use client';
import type { ReactNode } from 'react';
import { cancel } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { classNames } from './classNames.js';
import { Countdown } from './Countdown.js';
import { useLocalization } from './localization.js';
import { requestServer } from './requestServer.js';
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

/** Props of RequestFrame. */
export interface RequestFrameProps {
  request: Request;
  status: RequestViewStatus;
  /** How the view settles its Request: Escape inside the open question cancels through it. */
  settle?: (answer: Answer) => boolean;
  className?: string;
  children?: ReactNode;
}

/**
 * The common outside of every view: who asks, what (a heading of the provider's level), and until
 * when. Renders nothing once this view answered, and an "answered elsewhere" note when the
 * Request was settled elsewhere. Escape anywhere inside an open question cancels it (through `settle`).
 */
export function RequestFrame({ request, status, settle, className, children }: RequestFrameProps) {
  const { text, headingLevel } = useLocalization();
  if (status === 'answered') return null;
  const server = requestServer(request, text('unknownServer'));
  const Heading = `h${headingLevel}` as const;
  return (
    <section
      className={classNames('waitfor-request', className)}
      aria-label={text('region', { server, prompt: request.prompt })}
      data-waitfor-kind={request.kind}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented && status === 'open' && settle) {
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
      {status === 'closed' ? (
        <p role="status" className="waitfor-closed">
          {text('closed')}
        </p>
      ) : (
        children
      )}
    </section>
  );
}
