export { createRemoteInbox } from './remoteInbox';
export type { ConnectionState, RemoteInbox, RemoteInboxOptions } from './remoteInbox';
export { HttpInboxError } from './httpError';
export type { HttpInboxErrorCode, HttpInboxErrorOptions } from './httpError';
