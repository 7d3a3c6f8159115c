import type { Ended, Request as WaitforRequest } from '@waitfor/core';
import { createRecentMemory, scheduleUnref } from '@waitfor/runtime';
import type { AnswerableInbox } from './handler';
import { changeEvent, snapshotEvent } from './wire';
import type { WireEnded } from './wire';

/** One change of a scope's open questions, numbered: the data of its change event. */
interface Change {
  seq: number;
  added: readonly WaitforRequest[];
  removed: readonly string[];
  /** How removed questions ended, by id, where the inbox said at once; absent when none did. */
  ended?: Record<string, WireEnded>;
}

/** One connected Server-Sent Events client. */
export interface Stream {
  /** Sends encoded bytes; false when the client is too far behind (it is then closed). */
  send(bytes: Uint8Array): void;
  /** Ends the stream (the client reconnects and resumes). */
  close(): void;
}

/** How a feed is bounded. */
export interface FeedLimits {
  heartbeatMs: number;
  resumeWindowMs: number;
  maxLoggedChanges: number;
  /** The ids that left lately: at most this many, each for at most `maxEndedAgeMs`. */
  maxEndedIds: number;
  maxEndedAgeMs: number;
}

/**
 * One scope's view for the handler: a single inbox subscription shared by every stream of the
 * scope, a numbered log of recent changes (for `Last-Event-ID`), and the ids that ended lately
 * (so answering one is 409, not 404).
 */
export interface Feed {
  readonly inbox: AnswerableInbox;
  readonly streams: Set<Stream>;
  /** The events a (re)connecting client needs first: changes since `lastEventId`, or a snapshot. */
  catchUp(lastEventId: string | null): Uint8Array;
  /** True when `id` was open in this scope lately and has ended. */
  ended(id: string): boolean;
  /** Notes an id this handler answered (before its inbox may have said so). */
  noteEnded(id: string): void;
  /** Starts the resume window when no stream is left; the feed is dropped when it passes. */
  release(): void;
}

const encoder = new TextEncoder();
const eventIdPattern = /^([0-9a-z]{1,32})\.(\d{1,15})$/;
let feeds = 0;

/** Encodes one Server-Sent Event; JSON never contains a raw line break, so one `data:` line holds it. */
export const encodeEvent = (id: string, event: string, data: unknown): string =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A comment line: keeps proxies and the client's idle timers from closing a quiet stream. */
export const heartbeat = encoder.encode(': heartbeat\n\n');

/** Creates the feed of one scope; `drop` is called when it is no longer used. */
export function createFeed(inbox: AnswerableInbox, limits: FeedLimits, drop: () => void): Feed {
  // A new epoch per feed: an event id from an earlier feed, or another scope's, is never "known".
  const epoch = `${(++feeds).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const streams = new Set<Stream>();
  const log: Change[] = [];
  const endedIds = createRecentMemory<true>({
    maxEntries: limits.maxEndedIds,
    maxAgeMs: limits.maxEndedAgeMs,
  });
  let seq = 0;
  let last = inbox.getSnapshot();
  let open = new Map(last.map((request) => [request.id, request]));
  let stopHeartbeat: (() => void) | undefined;
  let stopLinger: (() => void) | undefined;

  const idOf = (at: number): string => `${epoch}.${at}`;
  const broadcast = (bytes: Uint8Array): void => {
    for (const stream of [...streams]) stream.send(bytes);
  };

  const onChange = (): void => {
    const next = inbox.getSnapshot();
    if (next === last) return;
    const { nextOpen, added, removed } = diff(open, next);
    last = next;
    open = nextOpen;
    if (removed.length === 0 && added.length === 0) return;
    for (const id of removed) endedIds.set(id, true);
    for (const request of added) endedIds.delete(request.id);
    const ended = endingsOf(inbox, removed, nextOpen);
    const change: Change = { seq: ++seq, added, removed, ...(ended ? { ended } : {}) };
    log.push(change);
    if (log.length > limits.maxLoggedChanges) log.shift();
    broadcast(encoder.encode(encodeEvent(idOf(seq), changeEvent, dataOf(change))));
  };
  const unsubscribe = inbox.subscribe(onChange);

  const beat = (): void => {
    stopHeartbeat = scheduleUnref(limits.heartbeatMs, () => {
      broadcast(heartbeat);
      beat();
    });
  };

  const feed: Feed = {
    inbox,
    streams,
    catchUp(lastEventId) {
      stopLinger?.();
      stopLinger = undefined;
      if (!stopHeartbeat) beat();
      const match = lastEventId === null ? null : eventIdPattern.exec(lastEventId);
      const since = match && match[1] === epoch ? Number(match[2]) : -1;
      const oldest = log[0]?.seq ?? seq + 1;
      // Known and recent enough: what changed since. Unknown, forged or too old: a fresh snapshot.
      if (since >= oldest - 1 && since <= seq) return encoder.encode(replay(log, since, idOf));
      return encoder.encode(encodeEvent(idOf(seq), snapshotEvent, { requests: last }));
    },
    ended: (id) => endedIds.get(id) === true,
    noteEnded: (id) => endedIds.set(id, true),
    release() {
      if (streams.size > 0) return;
      stopHeartbeat?.();
      stopHeartbeat = undefined;
      stopLinger?.();
      stopLinger = scheduleUnref(limits.resumeWindowMs, () => {
        if (streams.size > 0) return;
        unsubscribe();
        drop();
      });
    },
  };
  // Until a stream arrives, the feed lives for the resume window only (a POST alone creates one).
  feed.release();
  return feed;
}

/** What changed between two snapshots: a Request replaced under the same id (a re-asked form) is removed and added again. */
function diff(open: Map<string, WaitforRequest>, next: readonly WaitforRequest[]) {
  const nextOpen = new Map(next.map((request) => [request.id, request]));
  const removed = [...open].flatMap(([id, request]) => (nextOpen.get(id) === request ? [] : [id]));
  const added = next.filter((request) => open.get(request.id) !== request);
  return { nextOpen, added, removed };
}

/**
 * How the removed questions ended, for those whose inbox says at once (core's inbox; a store's for
 * what its notices said). A promise (a read elsewhere) is not waited for: the removal goes now,
 * without it. An id open again in the same change (a re-asked form) is not asked.
 */
function endingsOf(
  inbox: AnswerableInbox,
  removed: readonly string[],
  open: ReadonlyMap<string, WaitforRequest>,
): Record<string, WireEnded> | undefined {
  if (inbox.ended === undefined) return undefined;
  // Without a prototype: an id is any string, `__proto__` too, and JSON writes it as a key.
  const ended = Object.create(null) as Record<string, WireEnded>;
  let any = false;
  for (const id of removed) {
    if (open.has(id)) continue;
    const end = readEnded(inbox, id);
    if (end === undefined) continue;
    const by = typeof end.answeredBy === 'string' ? { answeredBy: end.answeredBy } : {};
    ended[id] = { reason: end.reason, ...by, at: end.at };
    any = true;
  }
  return any ? ended : undefined;
}

/** `inbox.ended(id)` when it answers at once; undefined for a promise (its failure ignored) or a throw. */
function readEnded(inbox: AnswerableInbox, id: string): Ended | undefined {
  try {
    const end = inbox.ended!(id);
    if (typeof (end as PromiseLike<unknown> | undefined)?.then !== 'function')
      return end as Ended | undefined;
    (end as PromiseLike<unknown>).then(undefined, () => {});
    return undefined;
  } catch {
    return undefined;
  }
}

/** A change's event data: `ended` only when some removal says how it ended. */
const dataOf = ({ added, removed, ended }: Change) =>
  ended === undefined ? { added, removed } : { added, removed, ended };

/** The change events after `since`, as one text. */
function replay(log: readonly Change[], since: number, idOf: (at: number) => string): string {
  return log
    .filter((change) => change.seq > since)
    .map((change) => encodeEvent(idOf(change.seq), changeEvent, dataOf(change)))
    .join('');
}
