import type { WaitFor } from '@waitfor/core';
import { budgetText, planTripBudget, tripBudgetName } from './tripBudget.js';

export { hostName } from './tripBudget.js';

/** A tool the example runs itself (no MCP server), listed next to the servers' tools. */
export interface HostTool {
  name: string;
  title: string;
  description: string;
  /** Runs the tool, asking through `waitFor`, and resolves with the text of its result. */
  run(waitFor: WaitFor, signal?: AbortSignal): Promise<string>;
}

/** The example's own tools: they ask through the same slot as both servers. */
export const hostTools: readonly HostTool[] = [
  {
    name: tripBudgetName,
    title: 'Plan a trip budget',
    description:
      'Runs in this app: a typed question (zod, the dates checked by a refinement), then an approval.',
    run: async (waitFor, signal) => budgetText(await planTripBudget(waitFor, signal)),
  },
];

/** The host tool called `name`, if there is one. */
export const hostTool = (name: string): HostTool | undefined =>
  hostTools.find((tool) => tool.name === name);
