'use client';
import type { ReactNode } from 'react';
import type { Request } from '@waitfor/core';
import { Countdown } from './Countdown.js';
import { requestServer } from './requestServer.js';
import type { RequestViewStatus } from './useRequestView.js';

/** Props of RequestFrame. */
export interface RequestFrameProps {
  request: Request;
  status: RequestViewStatus;
  children?: ReactNode;
}

/**
 * The common outside of every view: who asks, what, and until when. Renders nothing once this view
 * answered, and an "answered elsewhere" note when the Request was settled elsewhere.
 */
export function RequestFrame({ request, status, children }: RequestFrameProps) {
  if (status === 'answered') return null;
  const server = requestServer(request);
  return (
    <section aria-label={`Request from ${server}`} data-waitfor-kind={request.kind}>
      <header>
        <p>
          <strong data-waitfor-server="">{server}</strong> asks:
        </p>
        <p>{request.prompt}</p>
        <Countdown expiresAt={request.expiresAt} />
      </header>
      {status === 'closed' ? (
        <p role="status">Answered elsewhere: this request is no longer open.</p>
      ) : (
        children
      )}
    </section>
  );
}
