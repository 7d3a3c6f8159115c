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
/** What changed since the previous event: requests added, ids removed (removed first). */
export const changeEvent = 'change';
