'use client';
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { ActionButton, RefuseButtons } from './ActionButton.js';
import { RequestFrame } from './RequestFrame.js';
import { useRequestView } from './useRequestView.js';

/** Props of ApprovalView. */
export interface ApprovalViewProps {
  request: Request;
  className?: string;
}

/** A generic approve / decline / cancel view for any Request that is neither a form nor a URL. */
export function ApprovalView({ request, className }: ApprovalViewProps) {
  const view = useRequestView(request);
  return (
    <RequestFrame request={request} status={view.status} className={className} settle={view.settle}>
      {request.url ? (
        <p>
          {/* Shown as text only: a URL is clickable only in an authorization consent. */}
          <code className="waitfor-url">{request.url}</code>
        </p>
      ) : null}
      <div className="waitfor-actions">
        <ActionButton
          request={request}
          action="approve"
          onClick={() => view.settle(accept(request))}
        />
        <RefuseButtons request={request} settle={view.settle} />
      </div>
    </RequestFrame>
  );
}
