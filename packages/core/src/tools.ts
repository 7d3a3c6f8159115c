export { runTool, runToolDurable, resumeTool } from './tools/runTool';
export type { RunToolOptions, ToolRunOptions } from './tools/runTool';
export { pending, isPending } from './tools/pending';
export type { Pending } from './tools/pending';
export { parseToolSuspension } from './tools/suspension';
export type { ToolSuspension } from './tools/suspension';
export type { Tool, ToolContext, ToolOutcome } from './tools/toolLoop';
export type { JsonValue } from './tools/jsonSafe';
// The round engine every driver of a round uses (the bridge's modern era too).
export {
  answersFor,
  askAll,
  askUntilValid,
  checkQuestions,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_REQUESTS,
  DEFAULT_MAX_ROUNDS,
  isForm,
  parseSuspension,
  resumeRound,
} from './round/index';
export type {
  AnswerCheck,
  AnswerMismatch,
  AskUntilValidOptions,
  AskUntilValidResult,
  ParsedSuspension,
  RoundDriver,
  RoundQuestion,
  SuspendedQuestion,
  SuspensionFail,
  SuspensionShape,
} from './round/index';
