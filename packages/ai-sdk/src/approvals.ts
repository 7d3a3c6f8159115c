import { boundWaitFor, createRequestId } from '@waitfor/core';
import type { AbortSignalLike, Answer, Request, WaitFor } from '@waitfor/core';
import { askAll } from '@waitfor/core/tools';
import { isRecord } from '@waitfor/runtime';
import type { ToolApprovalResponse, ToolModelMessage } from 'ai';
import { AiSdkError } from './aiSdkError';

/** What `askApprovals` reads of a step's content part: the AI SDK's `tool-approval-request`. */
export interface ApprovalRequestPart {
  type: 'tool-approval-request';
  approvalId: string;
  toolCall: { toolCallId: string; toolName: string; input: unknown };
}

/** Options of `askApprovals`. */
export interface AskApprovalsOptions {
  /** The host's one slot: each approval is asked as a Request of kind `approval`. */
  waitFor: WaitFor;
  /**
   * The tools of the run: an approval names its tool's title and `metadata.server` (what
   * `mcpTools` sets) so the person sees who would be called.
   */
  tools?: Readonly<Record<string, { title?: string; metadata?: unknown }>>;
  /** Who asks for a tool that names no server (a tool of the host's own). Default "AI agent". */
  server?: string;
  /** Ends every open approval; `askApprovals` then rejects with its reason. */
  signal?: AbortSignalLike;
  /** Longest time, in ms, an approval waits; it then ends as expired (denied). */
  timeoutMs?: number;
}

/** The most characters of a tool's input a prompt shows (the whole input is in `data.input`). */
const MAX_INPUT_CHARS = 400;
const DEFAULT_SERVER = 'AI agent';

const isApprovalRequest = (part: unknown): part is ApprovalRequestPart =>
  isRecord(part) &&
  part.type === 'tool-approval-request' &&
  typeof part.approvalId === 'string' &&
  isRecord(part.toolCall) &&
  typeof part.toolCall.toolName === 'string';

const inputText = (input: unknown): string => {
  const json = JSON.stringify(input) ?? '';
  return json.length > MAX_INPUT_CHARS ? `${json.slice(0, MAX_INPUT_CHARS)}…` : json;
};

/** One approval request of the AI SDK as a waitfor Request. */
export function approvalRequest(
  part: ApprovalRequestPart,
  options: Pick<AskApprovalsOptions, 'tools' | 'server'> = {},
): Request {
  const { toolName, toolCallId, input } = part.toolCall;
  const tool = options.tools !== undefined && Object.hasOwn(options.tools, toolName);
  const definition = tool ? options.tools![toolName] : undefined;
  const metadata = isRecord(definition?.metadata) ? definition.metadata : {};
  const named = typeof metadata.server === 'string' && metadata.server !== '';
  const server = named ? (metadata.server as string) : (options.server ?? DEFAULT_SERVER);
  const title = typeof definition?.title === 'string' ? definition.title : toolName;
  const args = inputText(input);
  return {
    id: createRequestId('approval'),
    kind: 'approval',
    prompt: args === '{}' || args === '' ? `Run ${title}?` : `Run ${title} with ${args}?`,
    data: {
      origin: { server, tool: toolName, toolCallId, approvalId: part.approvalId },
      input,
    },
  };
}

/** An Answer as the AI SDK's approval response: approved only when ok, else its reason. */
export const approvalResponse = (approvalId: string, answer: Answer): ToolApprovalResponse =>
  answer.ok
    ? { type: 'tool-approval-response', approvalId, approved: true }
    : {
        type: 'tool-approval-response',
        approvalId,
        approved: false,
        reason: answer.reason ?? 'declined',
      };

/**
 * The AI SDK's tool approvals (`needsApproval`: the step's `tool-approval-request` parts) asked
 * through the host's `waitFor`, all of a step at once, as Requests of kind `approval` — the same
 * slot, list and UI as every question an MCP server asks. Resolves with the `tool` message of
 * approval responses to append to the messages of the next `generateText` / `streamText` /
 * `agent.generate` (approved calls then run, denied ones reach the model as denied), or undefined
 * when `content` holds no approval request. A waitFor that fails or times out denies.
 */
export async function askApprovals(
  content: readonly unknown[],
  options: AskApprovalsOptions,
): Promise<ToolModelMessage | undefined> {
  const parts = content.filter(isApprovalRequest);
  if (parts.length === 0) return undefined;
  const { signal } = options;
  if (signal?.aborted) throw signal.reason;
  const bound = boundWaitFor(
    options.waitFor,
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  // All at once, one abort fan-out: the core round engine, as the bridge asks a round.
  const answers = await askAll(
    parts,
    (part, question) => bound(approvalRequest(part, options), { signal: question.signal }),
    signal,
  );
  if (signal?.aborted) throw signal.reason;
  return {
    role: 'tool',
    content: parts.map((part, index) => approvalResponse(part.approvalId, answers[index]!)),
  };
}

/** Which tools `mcpTools` marks `needsApproval`. */
export type ApproveOption =
  | boolean
  | readonly string[]
  | ((call: { tool: string; input: unknown }) => boolean | PromiseLike<boolean>);

/** `mcpTools`'s `approve` for one tool: the AI SDK's `needsApproval`, or nothing. */
export function needsApprovalOf(
  name: string,
  approve: ApproveOption | undefined,
): boolean | ((input: unknown) => boolean | PromiseLike<boolean>) | undefined {
  if (approve === undefined || approve === false) return undefined;
  if (approve === true) return true;
  if (typeof approve === 'function') return (input) => approve({ tool: name, input });
  if (Array.isArray(approve)) return approve.includes(name) ? true : undefined;
  throw new AiSdkError('invalid_options', 'approve must be a boolean, tool names or a function');
}
