export { createRemoteInbox, followEventStream } from './remoteInbox';
export type {
  ConnectionState,
  EventStream,
  EventStreamOptions,
  RemoteInbox,
  RemoteInboxOptions,
} from './remoteInbox';
export { HttpInboxError } from './httpError';
export type { HttpInboxErrorCode, HttpInboxErrorOptions } from './httpError';
