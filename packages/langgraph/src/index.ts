export {
  callToolWithInterrupt,
  isWaitforInterrupt,
  waitforInterrupts,
} from './callToolWithInterrupt';
export type {
  InterruptCallOptions,
  InterruptSource,
  ResumeRefusal,
  WaitforInterrupt,
} from './callToolWithInterrupt';
export { isLangGraphError, LangGraphError } from './langGraphError';
export type { LangGraphErrorCode, LangGraphErrorOptions } from './langGraphError';
export { mcpToolNode } from './mcpToolNode';
export type { McpToolNodeOptions } from './mcpToolNode';
