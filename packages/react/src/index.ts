export { WaitforProvider, useInbox } from './WaitforProvider.js';
export type { WaitforProviderProps } from './WaitforProvider.js';
export { defaultMessages, formatMessage } from './messages.js';
export type { WaitforMessageKey, WaitforMessages } from './messages.js';
export { localize, useLocalization } from './localization.js';
export type {
  HeadingLevel,
  Localization,
  LocalizationOptions,
  TranslateFieldError,
} from './localization.js';
export { ArrivalAnnouncer } from './ArrivalAnnouncer.js';
export type { ArrivalAnnouncerProps } from './ArrivalAnnouncer.js';
export { usePendingRequests } from './usePendingRequests.js';
export { useRequest } from './useRequest.js';
export { useAnswer } from './useAnswer.js';
export type { AnswerFunctions } from './useAnswer.js';
export { useCountdown } from './useCountdown.js';
export type { CountdownState, CountdownOptions } from './useCountdown.js';
export { useElicitationForm } from './useElicitationForm.js';
export type { ElicitationFormOptions, ElicitationFormState } from './useElicitationForm.js';
export { useRequestView } from './useRequestView.js';
export type { RequestViewState, RequestViewStatus } from './useRequestView.js';
export { requestServer } from './requestServer.js';
export { inspectUrl } from './inspectUrl.js';
export type { MessageText, UrlInspection } from './inspectUrl.js';
export { readSampling, samplingLimit } from './readSampling.js';
export type { SamplingMessage, SamplingRequestData, SamplingReview } from './readSampling.js';
export { Countdown } from './Countdown.js';
export type { CountdownProps } from './Countdown.js';
export { ActionButton } from './ActionButton.js';
export type { ActionButtonProps } from './ActionButton.js';
export { RequestFrame } from './RequestFrame.js';
export type { RequestFrameProps } from './RequestFrame.js';
export { FormFieldControl } from './FormFieldControl.js';
export type { FormFieldControlProps } from './FormFieldControl.js';
export { ElicitationForm } from './ElicitationForm.js';
export type { ElicitationFormProps } from './ElicitationForm.js';
export { AuthorizationConsent } from './AuthorizationConsent.js';
export type { AuthorizationConsentProps } from './AuthorizationConsent.js';
export { ApprovalView } from './ApprovalView.js';
export type { ApprovalViewProps } from './ApprovalView.js';
export { SamplingView } from './SamplingView.js';
export type { SamplingViewProps } from './SamplingView.js';
export { CallProgress } from './CallProgress.js';
export type { CallProgressProps } from './CallProgress.js';
export { ConnectionStatus } from './ConnectionStatus.js';
export type { ConnectionState, ConnectionStatusProps } from './ConnectionStatus.js';
export { RequestView } from './RequestView.js';
export type { RequestViewProps } from './RequestView.js';
export { RequestList, RequestListItem } from './RequestList.js';
export { RequestBoundary } from './RequestBoundary.js';
export type { RequestBoundaryProps } from './RequestBoundary.js';
export type { RequestListItemProps, RequestListProps } from './RequestList.js';
export { WaitforReactError } from './waitforReactError.js';
export type { WaitforReactErrorCode } from './waitforReactError.js';
