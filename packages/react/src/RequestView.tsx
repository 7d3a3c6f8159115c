'use client';
import type { Request } from '@waitfor/core';
import { ApprovalView } from './ApprovalView.js';
import { AuthorizationConsent } from './AuthorizationConsent.js';
import { ElicitationForm } from './ElicitationForm.js';
import { SamplingView } from './SamplingView.js';

/** Props of RequestView. */
export interface RequestViewProps {
  request: Request;
  /** Passed to AuthorizationConsent: how a consented URL is opened. */
  open?: (url: string) => void;
  className?: string;
}

/**
 * Shows one Request with the view its kind needs: a form, a URL consent, a sampling review, or
 * approve / decline.
 */
export function RequestView({ request, open, className }: RequestViewProps) {
  const { kind } = request;
  if (kind === 'input') return <ElicitationForm request={request} className={className} />;
  if (kind === 'authorization')
    return <AuthorizationConsent request={request} open={open} className={className} />;
  if (kind === 'sampling') return <SamplingView request={request} className={className} />;
  return <ApprovalView request={request} className={className} />;
}
