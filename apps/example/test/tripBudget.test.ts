import { accept, createInbox, decline } from '@waitfor/core';
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { hostTool } from '../src/hostTool/hostTools.js';
import { budgetText, planTripBudget } from '../src/hostTool/tripBudget.js';

/** A waitFor that answers each Request with the next scripted reply and records what it asked. */
function scripted(...replies: Array<(request: Request) => Answer>) {
  const asked: Request[] = [];
  const waitFor: WaitFor = async (request) => {
    asked.push(request);
    const reply = replies.shift();
    if (reply === undefined) throw new Error(`Nothing scripted for ${request.prompt}`);
    return reply(request);
  };
  return { asked, waitFor };
}

const dates = (returns: string) => (request: Request) =>
  accept(request, { departs: '2027-03-14', returns, travellers: 3 });

describe('the host-side tool "Plan a trip budget"', () => {
  it('asks the return date again with zod’s message, then approves and gives the typed budget', async () => {
    const { asked, waitFor } = scripted(dates('2027-03-10'), dates('2027-03-18'), accept);
    const result = await planTripBudget(waitFor);
    expect(result).toEqual({
      departs: '2027-03-14',
      returns: '2027-03-18',
      travellers: 3,
      daily: 120,
      days: 4,
      total: 1440,
      saved: true,
    });
    expect(asked.map((request) => request.kind)).toEqual(['input', 'input', 'approval']);
    const [first, again, save] = asked;
    expect(again?.data).toMatchObject({
      errors: { returns: 'The return date must be after the departure date.' },
      values: { departs: '2027-03-14', returns: '2027-03-10' },
      attempt: 2,
    });
    expect(again?.id).not.toBe(first?.id);
    // Every question names the app as who asks, so the list and the terminal frame show it.
    expect(asked.map((request) => request.data?.origin)).toEqual([
      { server: 'This app', tool: 'plan_trip_budget' },
      { server: 'This app', tool: 'plan_trip_budget' },
      // The tool runner adds the input key the Answer comes back under.
      { server: 'This app', tool: 'plan_trip_budget', inputKey: 'save' },
    ]);
    expect(save?.prompt).toBe('Save a budget of EUR 1440 for 3 travellers over 4 days?');
    expect(budgetText(result)).toBe(
      'Saved a budget of EUR 1440 for 3 travellers, 4 days from 2027-03-14 to 2027-03-18 at EUR 120 a day each.',
    );
  });

  it('reports a declined question or a declined approval as its result', async () => {
    const declined = scripted(decline);
    expect(await hostTool('plan_trip_budget')?.run(declined.waitFor)).toBe(
      'No budget planned (declined).',
    );
    const unsaved = scripted(
      (request) => accept(request, { departs: '2027-03-14', returns: '2027-03-15', travellers: 1 }),
      decline,
    );
    expect(await hostTool('plan_trip_budget')?.run(unsaved.waitFor)).toBe(
      'Not saved: a budget of EUR 120 for 1 traveller, 1 day from 2027-03-14 to 2027-03-15 at EUR 120 a day each.',
    );
  });

  it('rejects with the abort reason when its run is cancelled, and its question leaves the inbox', async () => {
    const inbox = createInbox();
    const controller = new AbortController();
    const run = planTripBudget(inbox.waitFor, controller.signal);
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    const reason = new Error('Cancelled from the page');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(inbox.getSnapshot()).toEqual([]);
  });
});
