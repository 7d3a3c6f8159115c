/**
 * The bridge's main entry (browser-safe; stdio is on '/node'): a host attaches its waitFor to a
 * client it made (`attachWaitFor`) or lets the bridge make one (`connect`), and calls through the
 * object it gets back. Everything else here is a type of that surface, or a protocol constant.
 */
export { attachWaitFor } from './attachWaitFor';
export type {
  AttachOptions,
  Attachment,
  Bridge,
  ListOptions,
  RootsHandler,
  SamplingHandler,
} from './attachWaitFor';
export { connect } from './connection';
export type { ConnectOptions, Connection, EraChoice, HttpTarget } from './connection';
export type { ReconnectOptions } from './connect/backoff';
export type { ConnectionSnapshot, ConnectionStore } from './connect/state';
export { CONNECTION_LOST } from './connect/guardedWaitFor';
export { elicitationCapabilities } from './capabilities';
export type { ElicitationMode } from './capabilities';
export type { V1Schemas } from './clientPort';
export type {
  CallOptions,
  DurableCallOptions,
  PromptParams,
  ResourceParams,
  ResumeOptions,
  ToolParams,
} from './calls';
export type {
  AnySuspension,
  CallProgress,
  DurableOutcome,
  InputRequest,
  Suspension,
  TaskState,
  TaskStatus,
  TaskSuspension,
} from './types';
export type { BridgeTasks, TaskHandle } from './tasks/types';
export { parseSuspension } from './eras';
export type { BridgeLimits } from './limits';
export { BridgeError, isBridgeError } from './bridgeError';
export type { BridgeErrorCode, WireError } from './bridgeError';
export type { AnswerVerdict } from './askHooks';
export type { BridgeEvents, BridgeExtension, CallInfo, ExtensionHost } from './extension';
export { LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from './protocol';
export type { CallMethod, ProtocolEra } from './protocol';
