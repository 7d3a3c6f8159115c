'use client';
import type { Request } from '@waitfor/core';
import { ApprovalView } from './ApprovalView.js';
import { AuthorizationConsent } from './AuthorizationConsent.js';
import { ElicitationForm } from './ElicitationForm.js';

/** Props of RequestView. */
export interface RequestViewProps {
  request: Request;
  /** Passed to AuthorizationConsent: how a consented URL is opened. */
  open?: (url: string) => void;
}

/** Shows one Request with the view its kind needs: a form, a URL consent, or approve / decline. */
export function RequestView({ request, open }: RequestViewProps) {
  if (request.kind === 'input') return <ElicitationForm request={request} />;
  if (request.kind === 'authorization')
    return <AuthorizationConsent request={request} open={open} />;
  return <ApprovalView request={request} />;
}
