export { answerToElicitResult, elicitationToRequest, parseElicitationParams } from './mapping';
export type { ElicitationParams, ElicitResult } from './mapping';
export { elicitationCapabilities } from './capabilities';
export type { BridgeCapabilities, CapabilityOptions, ElicitationMode } from './capabilities';
export { attachWaitFor } from './attachWaitFor';
export type { AttachOptions, Attachment, RootsHandler, SamplingHandler } from './attachWaitFor';
export { callTool, getPrompt, readResource, resume } from './calls';
export type {
  CallFunction,
  CallOptions,
  DurableCallOptions,
  DurableOutcome,
  ResumeOptions,
} from './calls';
export { parseSuspension } from './eras/modern/suspension';
export type { Suspension } from './eras/modern/suspension';
export type { InputRequest } from './eras/modern/resolveRound';
export { defaultBridgeLimits } from './limits';
export type { BridgeLimits } from './limits';
export { BridgeError } from './bridgeError';
export type { BridgeErrorCode, BridgeErrorOptions, WireError } from './bridgeError';
export type {
  BridgeEvents,
  BridgeExtension,
  CallInfo,
  CallMethod,
  ExtensionHost,
} from './extension';
export type { V1Schemas } from './clientPort';
export { connect, MODERN_PROTOCOL_VERSION } from './connection';
export type { ConnectOptions, Connection, EraChoice } from './connection';
