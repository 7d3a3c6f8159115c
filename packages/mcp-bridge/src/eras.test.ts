/**
 * The same waitFor answers questions from a v2 client in the modern era, a v2 client in the legacy
 * era and a v1 client — over Streamable HTTP on 127.0.0.1 and over stdio — against one real
 * dual-era server.
 */
import { accept, decline } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  type ClientKind,
  type TransportKind,
  useDualEraServer,
} from './__fixtures__/clients';

const server = useDualEraServer();

const cases: Array<[ClientKind, TransportKind, 'legacy' | 'modern']> = [
  ['v2-modern', 'http', 'modern'],
  ['v2-legacy', 'http', 'legacy'],
  ['v1', 'http', 'legacy'],
  ['v2-modern', 'stdio', 'modern'],
  ['v2-legacy', 'stdio', 'legacy'],
  ['v1', 'stdio', 'legacy'],
];

describe.each(cases)('%s client over %s', (kind, transport, era) => {
  const open = (waitFor: Parameters<typeof openClient>[3]['waitFor']) =>
    openClient(kind, transport, { url: server.url }, { waitFor });

  it('sends an accepted form exactly as the person gave it (no default filled behind them), and says who asks', async () => {
    // The person cleared the optional age and color, which have defaults: the server must not get them.
    const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
    const { bridge, close } = await open(person.waitFor);
    try {
      const result = await bridge.callTool({ name: 'ask_form' });
      expect(textOf(result)).toBe('accept:{"name":"Ada"}');
      expect(person.seen).toHaveLength(1);
      const [request] = person.seen;
      expect(request?.kind).toBe('input');
      expect(request?.prompt).toBe('Who are you?');
      expect(request?.id).toMatch(/^elc-/);
      expect((request?.data?.schema as { required?: string[] }).required).toEqual(['name']);
      expect(request?.data?.origin).toEqual({
        server: 'dual-era-fixture',
        era,
        tool: 'ask_form',
        ...(era === 'modern' ? { inputKey: 'profile' } : {}),
      });
    } finally {
      await close();
    }
  });

  it('fills the schema defaults only for an accept without data', async () => {
    const person = scriptedPerson((request) => accept(request));
    const { bridge, close } = await open(person.waitFor);
    try {
      const result = await bridge.callTool({ name: 'ask_defaults' });
      expect(textOf(result)).toBe('accept:{"version":"1.0","note":"none","replicas":3}');
      expect(person.seen).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('asks again when an accept with data lacks a required field that has a default', async () => {
    // First the person clears the required version (an empty object), then they type one in.
    const person = scriptedPerson((request, index) =>
      index === 0 ? accept(request, {}) : accept(request, { version: '2.0', replicas: '5' }),
    );
    const { bridge, close } = await open(person.waitFor);
    try {
      const result = await bridge.callTool({ name: 'ask_defaults' });
      expect(textOf(result)).toBe('accept:{"version":"2.0","replicas":5}');
      expect(person.seen).toHaveLength(2);
      expect(person.seen[1]?.data?.errors).toEqual({ version: 'Required.' });
      expect(person.seen[1]?.data?.values).toEqual({});
    } finally {
      await close();
    }
  });

  it('asks for URL consent and sends no content on accept; a decline is a decline', async () => {
    const person = scriptedPerson((request, index) =>
      index === 0 ? accept(request) : decline(request),
    );
    const { bridge, close } = await open(person.waitFor);
    try {
      expect(textOf(await bridge.callTool({ name: 'ask_url' }))).toBe('accept');
      expect(textOf(await bridge.callTool({ name: 'ask_url' }))).toBe('decline');
      expect(person.seen[0]).toMatchObject({
        kind: 'authorization',
        url: 'https://example.com/login?flow=1',
        prompt: 'Sign in to continue',
      });
    } finally {
      await close();
    }
  });

  it('runs two rounds with a signed requestState', async () => {
    const person = scriptedPerson((request) =>
      request.prompt === 'Which city?'
        ? accept(request, { city: 'Paris' })
        : accept(request, { confirm: true }),
    );
    const { bridge, close } = await open(person.waitFor);
    try {
      expect(textOf(await bridge.callTool({ name: 'two_rounds' }))).toBe('city=Paris confirm=true');
      expect(person.seen.map((request) => request.prompt)).toEqual([
        'Which city?',
        'Confirm Paris?',
      ]);
    } finally {
      await close();
    }
  });

  it('answers three questions of one round', async () => {
    const person = scriptedPerson((request) =>
      accept(request, { value: request.prompt.slice(-2) }),
    );
    const { bridge, close } = await open(person.waitFor);
    try {
      expect(textOf(await bridge.callTool({ name: 'fan_out', arguments: { count: 3 } }))).toBe(
        'q1=accept:{"value":"q1"} q2=accept:{"value":"q2"} q3=accept:{"value":"q3"}',
      );
      expect(person.seen).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it('asks from a prompt, a resource and a tool with an outputSchema', async () => {
    const answers: Record<string, Record<string, unknown>> = {
      'Which topic?': { topic: 'tides' },
      'Which word?': { word: 'moon' },
      'A number': { value: '21' },
    };
    const person = scriptedPerson((request) => accept(request, answers[request.prompt]));
    const { bridge, close } = await open(person.waitFor);
    try {
      const prompt = await bridge.getPrompt({ name: 'ask_prompt' });
      expect(prompt['messages']).toEqual([
        { role: 'user', content: { type: 'text', text: 'Tell me about tides' } },
      ]);
      const resource = await bridge.readResource({ uri: 'waitfor://asked' });
      expect(resource['contents']).toEqual([
        { uri: 'waitfor://asked', mimeType: 'text/plain', text: 'word=moon' },
      ]);
      const structured = await bridge.callTool({ name: 'structured' });
      expect(structured['structuredContent']).toEqual({ doubled: 42 });
      const origins = person.seen.map((request) => request.data?.origin);
      expect(origins[0]).toMatchObject({ prompt: 'ask_prompt', era });
      expect(origins[1]).toMatchObject({ resource: 'waitfor://asked', era });
      expect(origins[2]).toMatchObject({ tool: 'structured', era });
    } finally {
      await close();
    }
  });
});
