import { createInbox } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { CallRuns } from '../src/calls/callRuns.js';
import type { RunState, Starter } from '../src/calls/callRuns.js';

// The one life of a call that the in-page mode and the hosted host both run.
const question = (id: string, tool?: string): Request => ({
  id,
  kind: 'approval',
  prompt: 'Go?',
  data: { origin: { server: 'Travel Desk', ...(tool === undefined ? {} : { tool }) } },
});

function runs() {
  const reports: [number, RunState][] = [];
  const calls = new CallRuns<number>((id, state) => reports.push([id, state]));
  const last = (id: number) => reports.filter(([of]) => of === id).at(-1)?.[1];
  return { calls, reports, last };
}

describe('CallRuns', () => {
  it('a question declined makes the call read declined, whatever the tool then returns', async () => {
    const { calls, last } = runs();
    const inbox = createInbox();
    const waitFor = calls.noting('Travel Desk', inbox.waitFor);
    let finished!: () => void;
    const ended = new Promise<void>((resolve) => (finished = resolve));
    const starter: Starter = async () => {
      await waitFor(question('q1', 'book_trip'));
      finished();
      return { status: 'done', text: 'Booking declined: nothing was reserved.' };
    };
    expect(calls.start(1, 'Travel Desk', 'book_trip', starter)).toBe(true);
    expect(calls.start(2, 'Travel Desk', 'book_trip', starter)).toBe(false);
    expect(last(1)).toEqual({ status: 'running', questions: ['q1'] });
    inbox.answer({ id: 'q1', ok: false, reason: 'declined' });
    await ended;
    await expect.poll(() => last(1)?.status).toBe('declined');
    expect(last(1)).toEqual({
      status: 'declined',
      text: 'Booking declined: nothing was reserved.',
      questions: [],
    });
    expect(calls.busy('Travel Desk', 'book_trip')).toBe(false);
  });

  it('Cancel call aborts the run: cancelled, whatever error the abort surfaced as', async () => {
    const { calls, last } = runs();
    const starter: Starter = (signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('boom'))));
    calls.start(1, 'Deploy Console', 'scale_service', starter);
    expect(calls.cancel(1)).toBe(true);
    await expect.poll(() => last(1)?.status).toBe('cancelled');
    expect(last(1)).toEqual({ status: 'cancelled', note: 'cancelledCall', questions: [] });
    expect(calls.cancel(1)).toBe(false);
  });

  it('fails without SDK or bridge prefixes, as disconnected when the connection was lost, as not connected without a starter', async () => {
    const { calls, last } = runs();
    let lost = false;
    const failing: Starter = async () => {
      throw new Error('Server error -32603: MCP error -32603: Internal failure');
    };
    calls.start(1, 'Travel Desk', 'book_trip', failing);
    await expect.poll(() => last(1)?.status).toBe('failed');
    expect(last(1)?.text).toBe('Internal failure');
    lost = true;
    calls.start(2, 'Travel Desk', 'link_account', failing, () => lost);
    await expect.poll(() => last(2)?.note).toBe('disconnectedCall');
    calls.start(3, 'Travel Desk', 'sync_calendar', undefined);
    expect(last(3)).toEqual({ status: 'failed', note: 'notConnected', questions: [] });
  });

  it('a legacy push that names no call is noted on every run in flight on its server', () => {
    const { calls, last } = runs();
    const never: Starter = () => new Promise(() => {});
    calls.start(1, 'Travel Desk', 'book_trip', never);
    calls.start(2, 'Travel Desk', 'link_account', never);
    calls.start(3, 'Deploy Console', 'scale_service', never);
    calls.asked('Travel Desk', question('q9'));
    expect([last(1)?.questions, last(2)?.questions, last(3)?.questions]).toEqual([
      ['q9'],
      ['q9'],
      [],
    ]);
    calls.stop(new Error('The host stops'));
    expect(calls.running(1)).toBe(false);
  });
});
