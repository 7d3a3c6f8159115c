export { createInboxHandler } from './handler';
export type { AnswerableInbox, InboxHandler, InboxHandlerOptions } from './handler';
export { HttpInboxError, isHttpInboxError } from './httpError';
export type { HttpInboxErrorCode, HttpInboxErrorOptions } from './httpError';
