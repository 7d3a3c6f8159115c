'use client';
import type { Request } from '@waitfor/core';
import { classNames } from './classNames.js';
import { RequestFrame } from './RequestFrame.js';

/** Props of AnsweredElsewhere. */
export interface AnsweredElsewhereProps {
  /** A question this page answered too late (see useDepartedRequests). */
  request: Request;
  /** Takes the note away. */
  onDismiss(): void;
  className?: string;
}

/**
 * What a question shows after this page's answer lost the race: who asked and what, what happened
 * first — "Answered elsewhere" (by whom, where the host says), expired, or the asker no longer
 * needs it — and Dismiss.
 */
export function AnsweredElsewhere({ request, onDismiss, className }: AnsweredElsewhereProps) {
  return (
    <RequestFrame
      request={request}
      status="closed"
      className={classNames('waitfor-departed', className)}
      onDismiss={onDismiss}
    />
  );
}
