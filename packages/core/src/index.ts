export type {
  AbortSignalLike,
  Answer,
  AnswerReason,
  ConnectionState,
  Request,
  RequestData,
  RequestKind,
  RequestOrigin,
  WaitFor,
  WaitForContext,
} from './types';
export { accept, answerCause, cancel, decline, expire } from './answers';
export { boundWaitFor } from './boundWaitFor';
export type { BoundWaitForOptions } from './boundWaitFor';
export { createInbox } from './inbox';
export type { Ended, Inbox, InboxOptions, MemoryInbox } from './inbox';
export { parseAnswer } from './parseAnswer';
export { parseRequest } from './parseRequest';
export { allowServers, declineKinds, declineServers, httpUrlsOnly, withPolicies } from './policies';
export type { Policy } from './policies';
export { createRequestId } from './requestId';
export { requestOrigin } from './requestOrigin';
export { isWaitforError, WaitforError } from './waitforError';
export type { FieldErrors, WaitforErrorCode, WaitforErrorOptions } from './waitforError';
