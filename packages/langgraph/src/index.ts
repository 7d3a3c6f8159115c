export {
  answersFor,
  callToolWithInterrupt,
  isWaitforInterrupt,
  waitforInterrupts,
} from './callToolWithInterrupt';
export type {
  InterruptCallOptions,
  InterruptSource,
  WaitforInterrupt,
} from './callToolWithInterrupt';
export { LangGraphError } from './langGraphError';
export type { LangGraphErrorCode, LangGraphErrorOptions } from './langGraphError';
