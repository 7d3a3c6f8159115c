/**
 * The bridge a host holds: `attachWaitFor` returns one object whose call, resume and list methods,
 * `openRequests`, `on` and `detach` belong to that client — against the real dual-era server over
 * Streamable HTTP, with a v2 client in each era and a v1 client. Calls go through that object's
 * methods only (there is no other way to call).
 */
import { accept, type Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
  type ClientKind,
} from './__fixtures__/clients';
import { BridgeError, type Bridge, type BridgeErrorCode } from './index';

const server = useDualEraServer();

const cases: Array<[ClientKind, 'legacy' | 'modern']> = [
  ['v2-modern', 'modern'],
  ['v2-legacy', 'legacy'],
  ['v1', 'legacy'],
];

const names = (page: Record<string, unknown>, key: string) =>
  (page[key] as Array<{ name: string }>).map((item) => item.name);

describe.each(cases)('the bridge object, %s client', (kind, era) => {
  const open = async (waitFor: Parameters<typeof openClient>[3]['waitFor']) => {
    const opened = await openClient(kind, 'http', { url: server.url }, { waitFor });
    return { ...opened, bridge: opened.attachment as Bridge };
  };

  it('calls through its own methods, with its open questions and events', async () => {
    let openDuringAsk: readonly Request[] = [];
    const held: { bridge?: Bridge } = {};
    const person = scriptedPerson((request) => {
      openDuringAsk = held.bridge!.openRequests();
      return accept(request, { name: 'Ada' });
    });
    const opened = await open(person.waitFor);
    const bridge = (held.bridge = opened.bridge);
    const events: string[] = [];
    const stops = [
      bridge.on('request', (request) => events.push(`request ${request.id}`)),
      bridge.on('answer', ({ request, answer }) =>
        events.push(`answer ${request.id} ${answer.ok}`),
      ),
    ];
    try {
      expect(bridge.era).toBe(era);
      expect(bridge.serverName).toBe('dual-era-fixture');
      const result = await bridge.callTool({ name: 'ask_form' });
      expect(textOf(result)).toBe('accept:{"name":"Ada"}');
      const [asked] = person.seen;
      expect(openDuringAsk).toEqual([asked]);
      expect(bridge.openRequests()).toEqual([]);
      expect(events).toEqual([`request ${asked!.id}`, `answer ${asked!.id} true`]);
    } finally {
      for (const stop of stops) stop();
      await opened.close();
    }
  });

  it('lists tools, prompts and resources, passing the cursor on', async () => {
    const { bridge, close } = await open(scriptedPerson((request) => accept(request)).waitFor);
    try {
      expect(names(await bridge.listTools(), 'tools')).toContain('ask_form');
      expect(names(await bridge.listPrompts(), 'prompts')).toContain('ask_prompt');
      expect(names(await bridge.listResources(), 'resources')).toContain('asked');
      const before = server.received.length;
      // The fixture does not paginate: an unknown cursor comes back as the server's own answer or
      // error, but it must reach the server as sent.
      await bridge.listTools({ cursor: 'page-2' }).catch((error: unknown) => {
        expect(BridgeError.isInstance(error)).toBe(true);
      });
      const sent = server.received
        .slice(before)
        .find((received) => received.message.method === 'tools/list');
      expect(sent?.message.params?.['cursor']).toBe('page-2');
    } finally {
      await close();
    }
  });

  it("a call's questions are the bridge's own: its 'request' events name each one", async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Grace' }));
    const { bridge, close } = await open(person.waitFor);
    const seen: string[] = [];
    const stop = bridge.on('request', (request) => seen.push(request.id));
    try {
      expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Grace"}');
      expect(seen).toEqual(person.seen.map((request) => request.id));
    } finally {
      stop();
      await close();
    }
  });

  it('after detach its methods serve nobody: nothing is asked', async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
    const { bridge, close } = await open(person.waitFor);
    try {
      bridge.detach();
      const error = await bridge.callTool({ name: 'ask_form' }).then(
        () => undefined,
        (failure: unknown) => failure as BridgeError,
      );
      // Legacy: pushes need an attached handler, refused before anything is sent. Modern: the call
      // may run, but without a waitFor of its own it is refused too.
      expect(error?.code).toBe<BridgeErrorCode>('invalid_options');
      expect(person.seen).toHaveLength(0);
    } finally {
      await close();
    }
  });
});
