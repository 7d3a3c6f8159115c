export { answerToElicitResult, elicitationToRequest, parseElicitationParams } from './mapping';
export type { ElicitationParams, ElicitResult } from './mapping';
export { elicitationCapabilities } from './capabilities';
export type { BridgeCapabilities, CapabilityOptions, ElicitationMode } from './capabilities';
export { attachWaitFor, createBridge } from './attachWaitFor';
export type {
  AttachOptions,
  Attachment,
  Bridge,
  ListOptions,
  RootsHandler,
  SamplingHandler,
} from './attachWaitFor';
export { callTool, getPrompt, readResource, resume } from './calls';
export type {
  BridgeCall,
  CallFunction,
  CallOptions,
  DurableCallOptions,
  DurableOutcome,
  PromptParams,
  ResourceParams,
  ResumeOptions,
  ToolParams,
} from './calls';
export { parseSuspension } from './eras/modern/suspension';
export type { Suspension } from './eras/modern/suspension';
export type { InputRequest } from './eras/modern/round';
export { defaultBridgeLimits } from './limits';
export type { BridgeLimits } from './limits';
export { BridgeError, isBridgeError } from './bridgeError';
export type { BridgeErrorCode, BridgeErrorOptions, WireError } from './bridgeError';
export type {
  BridgeEvents,
  BridgeExtension,
  CallInfo,
  ExtensionHost,
  HostAskOptions,
} from './extension';
export type { V1Schemas } from './clientPort';
export { connect } from './connection';
export { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from './protocol';
export type { CallMethod, ProtocolEra, SdkGeneration } from './protocol';
export type { ConnectOptions, Connection, EraChoice, HttpTarget } from './connection';
export { CONNECTION_LOST } from './connect/guardedWaitFor';
export type { ReconnectOptions } from './connect/backoff';
export type { ConnectionSnapshot, ConnectionState, ConnectionStatus } from './connect/state';
export type { CallProgress } from './callOptions';
