'use client';
import { useMemo, useSyncExternalStore } from 'react';
import type { Inbox, Request } from '@waitfor/core';
import { useInbox } from './WaitforProvider.js';

/** The questions that left this page's list because its answer lost to one given elsewhere. */
interface Departed {
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Request[];
  dismiss(id: string): void;
}

const departed = new WeakMap<Inbox, Departed>();
// How many questions that left are remembered, to be shown once their answer's refusal arrives.
const maxLeft = 32;

const lostRace = (inbox: Inbox, id: string): boolean => {
  const failure = (inbox as { getAnswerError?(id: string): unknown }).getAnswerError?.(id);
  return (failure as { code?: unknown } | undefined)?.code === 'conflict';
};

/**
 * One per inbox, shared by every list on it: follows the inbox while somebody listens, remembers
 * the last questions that left, and lists those whose answer from this page was refused as
 * answered elsewhere (the refusal may arrive after the question left), until dismissed.
 */
function departedOf(inbox: Inbox): Departed {
  const known = departed.get(inbox);
  if (known !== undefined) return known;
  const listeners = new Set<() => void>();
  let last: readonly Request[] = [];
  let left: Request[] = [];
  let shown: readonly Request[] = [];
  const dismissed = new Set<string>();
  let stop = (): void => {};

  const update = (): void => {
    const now = inbox.getSnapshot();
    if (now !== last) {
      const open = new Set(now.map((request) => request.id));
      const gone = last.filter((request) => !open.has(request.id));
      left = [...left.filter((request) => !open.has(request.id)), ...gone].slice(-maxLeft);
      for (const request of now) dismissed.delete(request.id);
      last = now;
    }
    const next = left.filter(
      (request) => !dismissed.has(request.id) && lostRace(inbox, request.id),
    );
    const same = next.length === shown.length && next.every((request, i) => request === shown[i]);
    if (same) return;
    shown = next;
    for (const listener of [...listeners]) listener();
  };

  const store: Departed = {
    subscribe(listener) {
      if (listeners.size === 0) {
        last = inbox.getSnapshot();
        stop = inbox.subscribe(update);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    getSnapshot: () => shown,
    dismiss(id) {
      dismissed.add(id);
      const next = shown.filter((request) => request.id !== id);
      if (next.length === shown.length) return;
      shown = next;
      for (const listener of [...listeners]) listener();
    },
  };
  departed.set(inbox, store);
  return store;
}

const none: readonly Request[] = [];

/**
 * The questions this page answered too late — another page or person answered first, or they
 * expired or were withdrawn meanwhile — so the list can say what happened instead of letting them
 * vanish; `dismiss` takes one away. Empty for an inbox that answers in place (core's).
 */
export function useDepartedRequests(): {
  departed: readonly Request[];
  dismiss(id: string): void;
} {
  const inbox = useInbox();
  const store = useMemo(() => departedOf(inbox), [inbox]);
  const list = useSyncExternalStore(store.subscribe, store.getSnapshot, () => none);
  return { departed: list, dismiss: store.dismiss };
}
