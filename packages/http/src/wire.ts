/**
 * What the handler and the remote inbox agree on: the paths under the handler's base path and the
 * names of the Server-Sent Events. Kept in one file so the two sides cannot drift apart.
 */

/** GET: the open questions as `{ requests }`. */
export const requestsPath = '/requests';
/** GET: the Server-Sent Events stream of changes. */
export const eventsPath = '/events';
/** POST `/requests/<id>/answer`: answer one question (the id URL-encoded). */
export const answerPath = (id: string): string => `/requests/${encodeURIComponent(id)}/answer`;

/** The first event of a fresh stream (and of a resume the server cannot serve): every open question. */
export const snapshotEvent = 'snapshot';
/**
 * What changed since the previous event: requests added, ids removed (removed first), and, beside
 * `removed`, `ended`: how removed questions ended, by id, for those whose inbox could say at once.
 * A reader that does not know `ended` ignores it; one that does takes only the ids in `removed`.
 */
export const changeEvent = 'change';

/** How one removed question ended, in a change event's `ended` (core's `Ended`, on the wire). */
export interface WireEnded {
  reason: 'answered' | 'expired' | 'cancelled';
  /** Who answered it, where the server's inbox knows. */
  answeredBy?: string;
  /** When, in epoch ms by the server's clock. */
  at: number;
}
