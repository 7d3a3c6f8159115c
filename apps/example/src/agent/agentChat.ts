import type { WaitFor } from '@waitfor/core';
import { askApprovals, mcpTools } from '@waitfor/ai-sdk';
import type { ApproveOption, McpTool, McpToolSource } from '@waitfor/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import { readableError, resultText } from '../web/resultText.js';
import { scriptedAgentModel } from './scriptedModel.js';

/** How one tool call of the conversation stands. */
export type AgentToolStatus = 'approval' | 'running' | 'done' | 'failed' | 'denied' | 'cancelled';

/** One line of the conversation as the page shows it. */
export type AgentEntry =
  | { id: string; role: 'user' | 'assistant'; text: string }
  /** The agent stopped (the person's Stop) or failed; `text` is the page's or the error's words. */
  | { id: string; role: 'note'; note: 'stopped' | 'failed'; text: string }
  | {
      id: string;
      role: 'tool';
      server: string;
      tool: string;
      status: AgentToolStatus;
      /** What the tool returned (or why it failed), once it ended. */
      text: string;
    };

/** The conversation as `GET /api/events` sends it. */
export interface AgentState {
  status: 'idle' | 'running';
  entries: AgentEntry[];
}

/** One server the agent may call, with the tools of it that wait for approval first. */
export interface AgentServer {
  source: McpToolSource;
  approve?: ApproveOption;
}

/** What the conversation runs on. */
export interface AgentSources {
  /** The servers connected now (the agent's own connections). */
  servers(): Promise<AgentServer[]>;
  /** Where approvals are asked: the same slot as every question of the servers. */
  waitFor: WaitFor;
}

/** The most lines the page is sent, and the most person messages the model is sent again. */
const maxEntries = 100;
const maxTurnsKept = 10;
/** Model calls of one message: a call, its result, and approvals in between. */
const maxRounds = 4;

/**
 * The example's agent: a conversation on the AI SDK (`generateText` with the scripted test model)
 * whose tools are both servers' tools through `@waitfor/ai-sdk`. A server's question, and the
 * approval of a tool marked `approve`, reach `waitFor` — the page's one list — while the page shows
 * the conversation. One message at a time; Stop aborts the turn, its tool call and its questions.
 */
export class AgentChat {
  private entries: AgentEntry[] = [];
  private messages: ModelMessage[] = [];
  private turnStarts: number[] = [];
  private controller: AbortController | undefined;
  private ids = 0;

  constructor(
    private readonly sources: AgentSources,
    private readonly changed: () => void,
  ) {}

  state(): AgentState {
    return { status: this.controller === undefined ? 'idle' : 'running', entries: this.entries };
  }

  /** Starts a turn with the person's message; false while a turn runs. */
  send(text: string): boolean {
    if (this.controller !== undefined || text.trim() === '') return false;
    const controller = new AbortController();
    this.controller = controller;
    this.add({ id: this.nextId('m'), role: 'user', text: text.trim() });
    this.turn(text.trim(), controller.signal)
      .catch((error: unknown) =>
        this.add(
          controller.signal.aborted
            ? { id: this.nextId('m'), role: 'note', note: 'stopped', text: '' }
            : { id: this.nextId('m'), role: 'note', note: 'failed', text: readableError(error) },
        ),
      )
      .finally(() => {
        this.controller = undefined;
        for (const entry of this.entries)
          if (entry.role === 'tool' && (entry.status === 'running' || entry.status === 'approval'))
            this.update(entry.id, { status: 'cancelled' });
        this.changed();
      });
    return true;
  }

  /** Stop: aborts the running turn (its tool call and open questions end); false when idle. */
  stop(): boolean {
    if (this.controller === undefined) return false;
    this.controller.abort(new Error('Stopped from the page'));
    return true;
  }

  private async turn(text: string, signal: AbortSignal): Promise<void> {
    const tools = await this.tools();
    this.turnStarts = [...this.turnStarts, this.messages.length].slice(-maxTurnsKept);
    this.messages = this.messages.slice(this.turnStarts[0]);
    this.turnStarts = this.turnStarts.map((start) => start - this.turnStarts[0]!);
    this.messages.push({ role: 'user', content: text });
    for (let round = 0; round < maxRounds; round++) {
      const result = await generateText({
        model: scriptedAgentModel(() => this.nextId('call')),
        tools,
        messages: this.messages,
        stopWhen: stepCountIs(maxRounds),
        abortSignal: signal,
      });
      this.messages.push(...result.response.messages);
      if (result.text !== '')
        this.add({ id: this.nextId('m'), role: 'assistant', text: result.text });
      const asked = result.content.filter((part) => part.type === 'tool-approval-request');
      if (asked.length === 0) return;
      for (const part of asked)
        this.toolEntry(part.toolCall.toolCallId, part.toolCall.toolName, tools, 'approval');
      const approvals = await askApprovals(result.content, {
        waitFor: this.sources.waitFor,
        tools,
        signal,
      });
      for (const response of approvals?.content ?? []) {
        const part = asked.find(
          (item) => item.approvalId === (response as { approvalId?: string }).approvalId,
        );
        const approved = (response as { approved?: boolean }).approved === true;
        if (part !== undefined)
          this.update(part.toolCall.toolCallId, { status: approved ? 'running' : 'denied' });
      }
      if (approvals !== undefined) this.messages.push(approvals);
    }
  }

  /** Every connected server's tools, each call shown in the conversation while it runs. */
  private async tools(): Promise<Record<string, McpTool>> {
    const tools: Record<string, McpTool> = {};
    for (const server of await this.sources.servers()) {
      const listed = await mcpTools(
        server.source,
        server.approve === undefined ? {} : { approve: server.approve },
      );
      for (const [name, tool] of Object.entries(listed))
        tools[name] = this.shown(name, tool, tools);
    }
    return tools;
  }

  private shown(name: string, tool: McpTool, tools: Record<string, McpTool>): McpTool {
    const execute = tool.execute!;
    return {
      ...tool,
      execute: async (input, options) => {
        this.toolEntry(options.toolCallId, name, tools, 'running');
        try {
          const output = await execute(input, options);
          this.update(options.toolCallId, { status: 'done', text: resultText(output) });
          return output;
        } catch (error) {
          const status = options.abortSignal?.aborted ? 'cancelled' : 'failed';
          this.update(options.toolCallId, { status, text: readableError(error) });
          throw error;
        }
      },
    };
  }

  private toolEntry(
    id: string,
    name: string,
    tools: Record<string, McpTool>,
    status: AgentToolStatus,
  ) {
    if (this.entries.some((entry) => entry.id === id)) return this.update(id, { status });
    const server = (tools[name]?.metadata as { server?: string } | undefined)?.server ?? '';
    this.add({ id, role: 'tool', server, tool: name, status, text: '' });
  }

  private add(entry: AgentEntry): void {
    this.entries = [...this.entries, entry].slice(-maxEntries);
    this.changed();
  }

  private update(id: string, change: { status: AgentToolStatus; text?: string }): void {
    this.entries = this.entries.map((entry) =>
      entry.id === id && entry.role === 'tool' ? { ...entry, ...change } : entry,
    );
    this.changed();
  }

  private nextId(prefix: string): string {
    return `${prefix}-${++this.ids}`;
  }
}
