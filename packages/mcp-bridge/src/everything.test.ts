/**
 * The bridge against the reference server `@modelcontextprotocol/server-everything` (built on the v1
 * SDK, so legacy era) over stdio, through a v2 client: `trigger-elicitation-request` pushes a form
 * with every field kind, and the tool echoes back what it received ("Raw result: …").
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Answer, Request } from '@waitfor/core';
import { accept, decline } from '@waitfor/core';
import { formDefaults } from '@waitfor/core/form';
import { afterEach, describe, expect, test } from 'vitest';
import type { Connection } from './index';
import { connect } from './node';

const require = createRequire(import.meta.url);
const everythingBin = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** What server-everything received, parsed from the "Raw result" block of its answer. */
function rawResult(result: unknown): { action: string; content?: Record<string, unknown> } {
  const texts = ((result as { content?: Array<{ text?: string }> }).content ?? []).map(
    (block) => block.text ?? '',
  );
  const raw = texts.find((text) => text.includes('Raw result:'));
  if (raw === undefined) throw new Error(`no raw result in ${JSON.stringify(texts)}`);
  return JSON.parse(raw.slice(raw.indexOf('Raw result:') + 'Raw result:'.length)) as never;
}

describe('server-everything over stdio (legacy era, v1 server)', () => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  const open = async (answer: (request: Request) => Answer) => {
    const requests: Request[] = [];
    connection = await connect(
      { command: process.execPath, args: [everythingBin, 'stdio'] },
      {
        waitFor: async (request) => {
          requests.push(request);
          return answer(request);
        },
      },
    );
    return { connection, requests };
  };

  test('every field kind reaches the server: typed values plus the defaults the form showed', async () => {
    const { connection, requests } = await open((request) =>
      // The person fills the fields without defaults (the integer typed as text, as a form would give it)
      // and leaves every defaulted field alone: a form shows the defaults, so it submits them.
      accept(request, {
        ...formDefaults(request.data?.schema),
        name: 'Ada Lovelace',
        check: true,
        email: 'ada@example.com',
        homepage: 'https://example.com/ada',
        birthdate: '1815-12-10',
        integer: '7',
      }),
    );
    expect(connection.era).toBe('legacy');
    const result = await connection.callTool({
      name: 'trigger-elicitation-request',
      arguments: {},
    });

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.kind).toBe('input');
    expect(request?.prompt).toBe('Please provide inputs for the following fields:');
    expect(request?.data?.origin).toMatchObject({
      era: 'legacy',
      tool: 'trigger-elicitation-request',
    });
    expect(request?.data?.origin?.server).toBe(connection.serverName);
    const properties = (request?.data?.schema as { properties: Record<string, unknown> })
      .properties;
    expect(Object.keys(properties)).toHaveLength(13);

    const received = rawResult(result);
    expect(received.action).toBe('accept');
    expect(received.content).toEqual({
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'ada@example.com',
      homepage: 'https://example.com/ada',
      birthdate: '1815-12-10',
      integer: 7,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    });
    expect(Object.keys(received.content ?? {}).sort()).toEqual(Object.keys(properties).sort());
  });

  test('a decline reaches the server as decline, without content', async () => {
    const { connection } = await open((request) => decline(request));
    const result = await connection.callTool({
      name: 'trigger-elicitation-request',
      arguments: {},
    });
    expect(rawResult(result)).toEqual({ action: 'decline' });
  });

  test('an answer that breaks the schema is never sent: the person is asked again', async () => {
    let attempt = 0;
    const { connection, requests } = await open((request) => {
      attempt += 1;
      // First a bad email and an integer out of range, then a valid answer.
      return attempt === 1
        ? accept(request, { name: 'Ada', email: 'not-an-email', integer: 1000 })
        : accept(request, { name: 'Ada', email: 'ada@example.com' });
    });
    const result = await connection.callTool({
      name: 'trigger-elicitation-request',
      arguments: {},
    });
    expect(requests).toHaveLength(2);
    expect(Object.keys((requests[1]?.data?.errors as Record<string, string>) ?? {}).sort()).toEqual(
      ['email', 'integer'],
    );
    // Exactly what the person gave: the defaulted fields they left out are not filled behind them.
    expect(rawResult(result).content).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });
});
