export { mcpTools } from './mcpTools';
export type { McpTool, McpToolSource, McpToolsOptions } from './mcpTools';
export { AiSdkError, isAiSdkError } from './aiSdkError';
export type { AiSdkErrorCode, AiSdkErrorOptions } from './aiSdkError';
export { toModelOutput } from './convert';
export type { ModelOutput } from './convert';
export { approvalRequest, approvalResponse, askApprovals } from './approvals';
export type { ApprovalRequestPart, ApproveOption, AskApprovalsOptions } from './approvals';
