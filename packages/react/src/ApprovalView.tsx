'use client';
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { RefuseButtons } from './RefuseButtons.js';
import { RequestFrame } from './RequestFrame.js';
import { useRequestView } from './useRequestView.js';

/** Props of ApprovalView. */
export interface ApprovalViewProps {
  request: Request;
}

/** A generic approve / decline / cancel view for any Request that is neither a form nor a URL. */
export function ApprovalView({ request }: ApprovalViewProps) {
  const view = useRequestView(request);
  return (
    <RequestFrame request={request} status={view.status}>
      {request.url ? (
        <p>
          {/* Shown as text only: a URL is clickable only in an authorization consent. */}
          <code>{request.url}</code>
        </p>
      ) : null}
      <div>
        <button type="button" onClick={() => view.settle(accept(request))}>
          Approve
        </button>
        <RefuseButtons request={request} settle={view.settle} />
      </div>
    </RequestFrame>
  );
}
