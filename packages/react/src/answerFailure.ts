'use client';
import { useMemo, useSyncExternalStore } from 'react';
import type { Ended, Inbox } from '@waitfor/core';
import type { ConnectionState } from './ConnectionStatus.js';
import { useInbox } from './WaitforProvider.js';

/**
 * Why an answer sent from this page did not go through, as an inbox that sends answers elsewhere
 * reports it (`getAnswerError(id)`, e.g. @waitfor/http's remote inbox): `conflict` (it ended
 * first: `ended` says how and `answeredBy` who answered, where the host says), `invalid_form` (the server's
 * per-field `errors`), `unavailable` (not sent), or another code with the server's message.
 */
export interface AnswerFailure {
  code?: string | undefined;
  message: string;
  /** Per-field messages of a refused form answer, by field name (no prototype). */
  errors?: Readonly<Record<string, string>> | undefined;
  /** A `conflict`: how the question ended first (core's `Ended` reason), where the host says. */
  ended?: Ended['reason'] | undefined;
  /** Who answered first, where the host says. */
  answeredBy?: string | undefined;
}

const reasons: readonly Ended['reason'][] = ['answered', 'expired', 'cancelled'];

/** What @waitfor/react reads of an inbox beyond core's `Inbox`, where the inbox offers it. */
interface InboxExtras {
  getAnswerError?(id: string): unknown;
  getConnectionState?(): ConnectionState;
  subscribeConnection?(listener: () => void): () => void;
}

const maxText = 1_000;

const text = (field: unknown): string | undefined =>
  typeof field === 'string' && field !== '' ? field.slice(0, maxText) : undefined;

/** A failure as the views show it: only string fields, bounded; undefined for anything else. */
function readFailure(value: unknown): AnswerFailure | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { code, message, errors, ended, answeredBy } = value as Record<string, unknown>;
  let fields: Record<string, string> | undefined;
  if (typeof errors === 'object' && errors !== null)
    for (const [name, said] of Object.entries(errors)) {
      const words = text(said);
      if (words === undefined) continue;
      fields ??= Object.create(null) as Record<string, string>;
      fields[name] = words;
    }
  return {
    code: text(code),
    message: text(message) ?? '',
    errors: fields,
    ended: reasons.find((reason) => reason === ended),
    answeredBy: text(answeredBy),
  };
}

/** A getSnapshot that returns the same failure until the inbox's error for `id` changes. */
function selectFailure(inbox: Inbox, id: string): () => AnswerFailure | undefined {
  let seen: unknown;
  let read: AnswerFailure | undefined;
  return () => {
    const raw = (inbox as InboxExtras).getAnswerError?.(id);
    if (raw !== seen) {
      seen = raw;
      read = readFailure(raw);
    }
    return read;
  };
}

/**
 * Why the last answer this page sent for `id` did not go through, or undefined (none failed, or
 * the inbox answers in place and reports no failures, as core's does).
 */
export function useAnswerFailure(id: string): AnswerFailure | undefined {
  const inbox = useInbox();
  const select = useMemo(() => selectFailure(inbox, id), [inbox, id]);
  return useSyncExternalStore(inbox.subscribe, select, select);
}

const alwaysConnected = (): ConnectionState => 'connected';
const noSubscription = () => () => {};

/**
 * The inbox's link to where its questions live (a remote inbox's event stream); `connected` for
 * an inbox that holds its questions itself.
 */
export function useInboxConnection(): ConnectionState {
  const inbox = useInbox() as Inbox & InboxExtras;
  const [get, subscribe] = useMemo(
    () => [
      inbox.getConnectionState?.bind(inbox) ?? alwaysConnected,
      inbox.subscribeConnection?.bind(inbox) ?? noSubscription,
    ],
    [inbox],
  );
  return useSyncExternalStore(subscribe, get, get);
}
