export { runTool, runToolDurable, resumeTool } from './tools/runTool';
export type { RunToolOptions, ToolRunOptions } from './tools/runTool';
export { pending, isPending } from './tools/pending';
export type { Pending } from './tools/pending';
export { parseToolSuspension } from './tools/suspension';
export type { ToolSuspension } from './tools/suspension';
export type { Tool, ToolContext, ToolOutcome } from './tools/toolLoop';
export type { JsonValue } from './tools/jsonSafe';
