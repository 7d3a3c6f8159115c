export { createLegacySpec, elicitationCompleteMethod, legacySpec } from './legacySpec';
export type { CompletionEvent, LegacySpec, LegacySpecOptions } from './legacySpec';
export type {
  CompletionWaitOptions,
  UrlElicitation,
  UrlElicitationCloseReason,
  UrlElicitationState,
} from './elicitationRegistry';
export { isLegacySpecError, LegacySpecError, legacySpecErrorOf } from './legacySpecError';
export type { LegacySpecErrorCode, LegacySpecErrorOptions } from './legacySpecError';
export { urlElicitationRequiredCode, urlElicitationsOf } from './urlElicitationRequired';
export type { UrlElicitationParams } from './urlElicitationRequired';
