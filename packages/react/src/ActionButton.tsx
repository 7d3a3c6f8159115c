'use client';
import type { ButtonHTMLAttributes } from 'react';
import { cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';
import { serverLabel } from './serverLabel.js';

/** Props of ActionButton. */
export interface ActionButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The Request the button answers: its prompt and server go into the button's accessible name. */
  request: Request;
  /** What it does: names its `waitfor-<action>` class and, unless `label` says, its text. */
  action: 'accept' | 'approve' | 'decline' | 'cancel' | 'edit' | 'open';
  /** The visible text; the action's message ("Accept") unless told. */
  label?: string;
}

/**
 * A button that settles a Request. Its accessible name says which question it answers
 * ("Accept — Which region? (Travel Desk)"), so a screen reader's list of buttons can tell two
 * questions apart; it starts with the visible label, so speech input finds it by what it shows.
 */
export function ActionButton({ request, action, label, className, ...rest }: ActionButtonProps) {
  const { text } = useLocalization();
  const shown = label ?? text(action);
  const server = serverLabel(request, text('unknownServer'));
  return (
    <button
      type="button"
      {...rest}
      className={classNames(`waitfor-button waitfor-${action}`, className)}
      aria-label={text('action', { action: shown, prompt: request.prompt, server })}
    >
      {shown}
    </button>
  );
}

/** Props of RefuseButtons. */
export interface RefuseButtonsProps {
  request: Request;
  settle(answer: Answer): boolean;
}

/** The Decline and Cancel buttons every view offers (the spec requires both to be clear). */
export function RefuseButtons({ request, settle }: RefuseButtonsProps) {
  return (
    <>
      <ActionButton request={request} action="decline" onClick={() => settle(decline(request))} />
      <ActionButton request={request} action="cancel" onClick={() => settle(cancel(request))} />
    </>
  );
}
