'use client';
import { cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';

/** Props of RefuseButtons. */
export interface RefuseButtonsProps {
  request: Request;
  settle(answer: Answer): boolean;
}

/** The Decline and Cancel buttons every view offers (the spec requires both to be clear). */
export function RefuseButtons({ request, settle }: RefuseButtonsProps) {
  return (
    <>
      <button type="button" onClick={() => settle(decline(request))}>
        Decline
      </button>
      <button type="button" onClick={() => settle(cancel(request))}>
        Cancel
      </button>
    </>
  );
}
