import { createRequestId } from '@waitfor/core';
import type { RequestOrigin, WaitFor } from '@waitfor/core';
import { pending, runTool } from '@waitfor/core/tools';
import type { Tool } from '@waitfor/core/tools';
import { ask, defineQuestion } from '@waitfor/core/zod';
import { z } from 'zod';

/** The name the example's own tools ask under, in the list and at the terminal. */
export const hostName = 'This app';

/** The tool's name, as a server's tools have one. */
export const tripBudgetName = 'plan_trip_budget';

// Who asks: the example itself, not an MCP server. The list and the terminal frame show `server`,
// the terminal adds the tool, as it does for the servers' questions.
const origin: RequestOrigin = { server: hostName, tool: tripBudgetName };

const dayMs = 86_400_000;

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** The typed question of the first round: the person's answer is checked by zod, refinement too. */
export const tripQuestion = defineQuestion({
  prompt: 'Plan a trip budget: when do you travel, how many of you, and how much a day?',
  schema: z
    .object({
      departs: z.iso.date().meta({ title: 'Departure date' }),
      returns: z.iso.date().meta({ title: 'Return date' }),
      travellers: z.int().min(1).max(9).default(2).meta({ title: 'Travellers' }),
      daily: z
        .int()
        .min(10)
        .max(2000)
        .default(120)
        .meta({ title: 'Budget per person and day (EUR)' }),
    })
    // The form schema cannot say that one date follows the other: zod says it, and its message is
    // shown on the re-ask under the return date.
    // Both are checked YYYY-MM-DD dates by now, so they compare as text.
    .refine((trip) => trip.returns > trip.departs, {
      message: 'The return date must be after the departure date.',
      path: ['returns'],
    }),
});

/** What the person planned, typed: the zod schema's output. */
export type TripPlan = z.output<typeof tripQuestion.schema>;

/** The tool's result: the budget worked out from the plan, and whether the person saved it. */
export interface TripBudget extends TripPlan {
  days: number;
  total: number;
  saved: boolean;
}

/** The tool run after the typed question: one approval round (pending), then its result. */
export const saveBudget: Tool<TripPlan, TripBudget> = (plan, { answers }) => {
  const days = Math.round((Date.parse(plan.returns) - Date.parse(plan.departs)) / dayMs);
  const total = days * plan.travellers * plan.daily;
  const save = answers['save'];
  if (save === undefined)
    return pending({
      save: {
        id: createRequestId('budget'),
        kind: 'approval',
        prompt: `Save a budget of EUR ${total} for ${counted(plan.travellers, 'traveller')} over ${counted(days, 'day')}?`,
      },
    });
  return { ...plan, days, total, saved: save.ok };
};

/** How the person ended the tool without a budget: declined, cancelled or expired. */
export interface NoBudget {
  planned: false;
  reason: string;
}

/**
 * The host-side tool "Plan a trip budget": a typed question (`ask`, zod refinement re-asked),
 * then the tool runner for the approval round. Both ask through `waitFor`, the slot the MCP
 * servers' questions go through, so they land in the same list. An abort rejects.
 */
export async function planTripBudget(
  waitFor: WaitFor,
  signal?: AbortSignal,
): Promise<TripBudget | NoBudget> {
  const plan = await ask(waitFor, tripQuestion, { signal, origin });
  // ask never rejects: an abort would read as "cancelled" by the person, so it is thrown here.
  signal?.throwIfAborted();
  if (!plan.ok) return { planned: false, reason: plan.reason };
  return runTool(saveBudget, plan.data, { waitFor, signal, origin });
}

/** The result as the page's log and the terminal print it. */
export function budgetText(result: TripBudget | NoBudget): string {
  if ('planned' in result) return `No budget planned (${result.reason}).`;
  const { departs, returns, days, travellers, daily, total } = result;
  const budget = `EUR ${total} for ${counted(travellers, 'traveller')}, ${counted(days, 'day')} from ${departs} to ${returns} at EUR ${daily} a day each`;
  return result.saved ? `Saved a budget of ${budget}.` : `Not saved: a budget of ${budget}.`;
}
