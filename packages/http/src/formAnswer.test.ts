import { accept } from '@waitfor/core';
import type { Request as WaitforRequest } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { as, inboxKinds, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

/** A form whose required field has a default: a person who clears it has not answered it. */
const planQuestion = (id: string): WaitforRequest => ({
  id,
  kind: 'input',
  prompt: 'Which plan?',
  data: {
    schema: {
      type: 'object',
      properties: {
        plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
        note: { type: 'string' },
      },
      required: ['plan'],
    },
  },
});

// The answer route takes a form answer by the bridge's rule (data as given, no data: the
// defaults), so it never says "answered" for an answer the bridge would ask again.
describe.each(inboxKinds)('a form answer, with the $name', (kind) => {
  let host: Host;
  const answers: Record<string, Promise<unknown>> = {};
  beforeAll(async () => {
    host = await startHost(kind);
    for (const id of ['plan-1', 'plan-2']) answers[id] = host.ask('alice', planQuestion(id));
    await vi.waitFor(async () =>
      expect((await host.inboxFor('alice')).getSnapshot()).toHaveLength(2),
    );
  });
  afterAll(() => host?.close());

  const post = (id: string, answer: unknown) =>
    fetch(`${host.url}/requests/${encodeURIComponent(id)}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...as('alice') },
      body: JSON.stringify(answer),
    });

  it('answers 422 for data that leaves out a required field with a default, and it stays open', async () => {
    const response = await post('plan-1', accept('plan-1', { note: 'hi' }));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: 'invalid_form',
      errors: { plan: 'Required.' },
    });
    expect((await host.inboxFor('alice')).get('plan-1')).toBeDefined();
  });

  it('accepts an answer without data (the defaults apply)', async () => {
    const response = await post('plan-2', accept('plan-2'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answered: true });
    expect(await answers['plan-2']).toEqual({ id: 'plan-2', ok: true });
  });
});
