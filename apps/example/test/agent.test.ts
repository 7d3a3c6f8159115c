import type { Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import type { AgentState } from '../src/agent/agentChat.js';
import { useHostedExample } from './hostedProcess.js';

/**
 * The agent mode of the hosted example, through the host's /api as the page uses it: the AI SDK's
 * scripted test model calls the real servers' tools over the agent's own bridge connections; the
 * approval and the server's question wait in the same store inbox as every other question.
 */
describe('the agent mode, against the running hosted host', () => {
  const hosted = useHostedExample('waitfor-agent-');

  const api = (path: string, body?: unknown) =>
    fetch(new URL(path, hosted.example.url), {
      ...(body === undefined
        ? {}
        : {
            method: 'POST',
            body: JSON.stringify(body),
            headers: { origin: hosted.origin, 'content-type': 'application/json' },
          }),
    });
  const agent = async () =>
    ((await (await api('/api/agent')).json()) as { agent: AgentState }).agent;
  const open = async () =>
    ((await (await api('/api/inbox/requests')).json()) as { requests: Request[] }).requests;
  const answer = (request: Request, ok: boolean, data?: Record<string, unknown>) =>
    api(`/api/inbox/requests/${encodeURIComponent(request.id)}/answer`, {
      id: request.id,
      ok,
      ...(ok ? { data } : { reason: 'declined' }),
    });
  const one = async (kind: string) => {
    await expect.poll(async () => (await open()).length, { timeout: 30_000 }).toBe(1);
    const [request] = await open();
    expect(request?.kind).toBe(kind);
    return request!;
  };
  const idle = () =>
    expect.poll(async () => (await agent()).status, { timeout: 30_000 }).toBe('idle');

  it('scale search-api: an approval, then the modern server’s question, both in the inbox; the result reaches the conversation', async () => {
    const sent = await api('/api/agent', { text: 'Please scale search-api' });
    expect(sent.status, await sent.clone().text()).toBe(202);
    const approval = await one('approval');
    expect(approval).toMatchObject({
      prompt: 'Run Scale a service with {"service":"search-api"}?',
      data: { origin: { server: 'Deploy Console', tool: 'scale_service' }, agent: true },
    });
    expect((await api('/api/agent', { text: 'again' })).status).toBe(409);
    expect((await answer(approval, true)).status).toBe(200);
    const question = await one('input');
    expect(question).toMatchObject({
      prompt: 'How many replicas should search-api run?',
      data: { origin: { server: 'Deploy Console', tool: 'scale_service', era: 'modern' } },
    });
    expect((await answer(question, true, { replicas: 4 })).status).toBe(200);
    await idle();
    const { entries } = await agent();
    expect(entries.map((entry) => entry.role)).toEqual(['user', 'tool', 'assistant']);
    expect(entries[1]).toMatchObject({ server: 'Deploy Console', status: 'done' });
    expect((entries[1] as { text: string }).text).toContain('4');
    expect((entries[2] as { text: string }).text).toContain('scale_service:');
    expect((entries[2] as { text: string }).text).toContain('4');
  });

  it('book a trip: the legacy server’s form reaches the inbox without an approval', async () => {
    expect((await api('/api/agent', { text: 'book a trip' })).status).toBe(202);
    const form = await one('input');
    expect(form.data?.origin).toMatchObject({ server: 'Travel Desk', tool: 'book_trip' });
    await answer(form, true, {
      destination: 'kyoto',
      departure: '2027-03-14',
      email: 'ada@example.com',
    });
    await idle();
    const last = (await agent()).entries.at(-1) as { role: string; text: string };
    expect(last.role).toBe('assistant');
    expect(last.text).toContain('book_trip:');
    expect(last.text).toContain('Kyoto');
  });

  it('a declined approval: the tool never runs and the model is told so', async () => {
    await api('/api/agent', { text: 'scale search-api' });
    await answer(await one('approval'), false);
    await idle();
    const entries = (await agent()).entries.slice(-2);
    expect(entries[0]).toMatchObject({ role: 'tool', status: 'denied' });
    expect(entries[1]).toMatchObject({
      role: 'assistant',
      text: 'You did not allow scale_service.',
    });
    expect(await open()).toEqual([]);
  });

  it('Stop ends the turn and withdraws its open question', async () => {
    await api('/api/agent', { text: 'book a trip' });
    await one('input');
    expect((await api('/api/agent/stop', {})).status).toBe(200);
    await idle();
    expect(await open()).toEqual([]);
    const entries = (await agent()).entries.slice(-2);
    expect(entries[0]).toMatchObject({ role: 'tool', status: 'cancelled' });
    expect(entries[1]).toMatchObject({ role: 'note', note: 'stopped' });
    expect((await api('/api/agent/stop', {})).status).toBe(404);
  });

  it('a message naming no tool gets the scripted model’s list of what it can do', async () => {
    await api('/api/agent', { text: 'hello' });
    await idle();
    const last = (await agent()).entries.at(-1) as { text: string };
    expect(last.text).toMatch(/^I am a scripted model\. Ask me to .*book.*scale/);
  });
});
