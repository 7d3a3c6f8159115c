/** connect(): a few lines to a server of either era, over HTTP (main entry) and stdio ('/node'). */
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  scriptedPerson,
  stdioFixture,
  textOf,
  tsxBinary,
  useDualEraServer,
} from './__fixtures__/clients';
import { BridgeError, connect } from './index';
import { connect as connectNode } from './node';

const server = useDualEraServer();

describe('connect', () => {
  it.each([
    ['auto', 'modern'],
    ['modern', 'modern'],
    ['legacy', 'legacy'],
  ] as const)('over HTTP with era %s speaks %s', async (choice, era) => {
    const person = scriptedPerson((request) => accept(request, { name: 'Kim' }));
    const connection = await connect({ url: server.url }, { waitFor: person.waitFor, era: choice });
    try {
      expect(connection.era).toBe(era);
      expect(connection.serverName).toBe('dual-era-fixture');
      expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Kim"}');
      const tools = (await connection.listTools())['tools'] as unknown[];
      expect(tools.length).toBeGreaterThan(5);
    } finally {
      await connection.close();
    }
  });

  it('negotiates over stdio from the node entry, and names the server as told', async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Io' }));
    const connection = await connectNode(
      { command: tsxBinary, args: [stdioFixture] },
      { waitFor: person.waitFor, serverName: 'Local tools' },
    );
    try {
      expect(connection.era).toBe('modern');
      expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Io"}');
      expect(person.seen[0]?.data?.origin).toMatchObject({
        server: 'Local tools',
        era: 'modern',
        tool: 'ask_form',
      });
    } finally {
      await connection.close();
    }
  });

  it('refuses a stdio target on the browser-safe entry and a missing waitFor', async () => {
    const bad = await connect({ command: 'x' } as never, {
      waitFor: async (request) => accept(request),
    }).catch((error: unknown) => error);
    expect(BridgeError.isInstance(bad) && bad.code).toBe('invalid_options');
    const noWait = await connect({ url: server.url }, {} as never).catch((error: unknown) => error);
    expect(BridgeError.isInstance(noWait) && noWait.code).toBe('invalid_options');
  });
});
