/**
 * The hostile server over stdio (src/__fixtures__/hostileStdio.ts, run through tsx): the server
 * process exits mid-round, and a well-formed round still works, in both eras.
 */
import { fileURLToPath } from 'node:url';
import type { Answer, Request } from '@waitfor/core';
import { accept } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Connection } from './index';
import { BridgeError } from './index';
import { connect } from './node';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const serverEntry = fileURLToPath(new URL('./__fixtures__/hostileStdio.ts', import.meta.url));

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe.each(['legacy', 'modern'] as const)('hostile server over stdio, %s era', (era) => {
  let connection: Connection | undefined;
  afterEach(async () => {
    await connection?.close().catch(() => {});
    connection = undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
    unhandled.length = 0;
  });

  const open = async (answer: (request: Request) => Promise<Answer>) => {
    const requests: Request[] = [];
    connection = await connect(
      { command: tsx, args: [serverEntry] },
      {
        era,
        waitFor: (request) => {
          requests.push(request);
          return answer(request);
        },
      },
    );
    expect(connection.era).toBe(era);
    return { connection, requests };
  };

  test('a well-formed round completes', async () => {
    const { connection, requests } = await open(async (request) =>
      accept(request, { confirmed: true }),
    );
    const result = await connection.callTool({ name: 'confirm', arguments: {} });
    expect(JSON.stringify(result)).toContain('confirmed');
    expect(requests).toHaveLength(1);
  });

  test('the server process exiting mid-round ends the call with a typed error', async () => {
    const { connection, requests } = await open(
      (request) =>
        new Promise((resolve) =>
          setTimeout(() => resolve(accept(request, { confirmed: true })), 400),
        ),
    );
    const error = await connection
      .callTool({ name: 'vanish', arguments: {} }, { timeout: 5_000 })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      );
    expect(BridgeError.isInstance(error)).toBe(true);
    // The SDK reports the closed pipe locally ("Connection closed" / "Not connected").
    expect((error as BridgeError).code).toBe('client_error');
    expect(requests).toHaveLength(1);
  });
});
