/**
 * The hostile server over stdio (src/__fixtures__/hostileStdio.ts, run through tsx): the server
 * process exits mid-round, and a well-formed round still works, in both eras.
 */
import { fileURLToPath } from 'node:url';
import type { Answer, Request } from '@waitfor/core';
import { accept } from '@waitfor/core';
import { afterEach, describe, expect, test } from 'vitest';
import { tsxBinary } from './__fixtures__/clients';
import {
  confirmYes,
  failOnUnhandledRejections,
  recordingWaitFor,
  rejection,
} from './__fixtures__/hostileHelpers';
import type { Connection } from './index';
import { connect } from './node';

const serverEntry = fileURLToPath(new URL('./__fixtures__/hostileStdio.ts', import.meta.url));

failOnUnhandledRejections();

describe.each(['legacy', 'modern'] as const)('hostile server over stdio, %s era', (era) => {
  let connection: Connection | undefined;
  // Runs before the file-level unhandled-rejection check, so a rejection the close causes is caught.
  afterEach(async () => {
    await connection?.close().catch(() => {});
    connection = undefined;
  });

  const open = async (answer: (request: Request) => Promise<Answer>) => {
    const { waitFor, requests } = recordingWaitFor(answer);
    connection = await connect({ command: tsxBinary, args: [serverEntry] }, { era, waitFor });
    expect(connection.era).toBe(era);
    return { connection, requests };
  };

  test('a well-formed round completes', async () => {
    const { connection, requests } = await open(confirmYes);
    const result = await connection.callTool({ name: 'confirm', arguments: {} });
    expect(JSON.stringify(result)).toContain('confirmed');
    expect(requests).toHaveLength(1);
  });

  test('the server process exiting mid-round ends the call with a typed error', async () => {
    // The person answers once the client has seen the server's pipe close: the order is the
    // event's, not a timer's (two processes' timers can swap under load).
    const { connection, requests } = await open(async (request) => {
      const client = connection!.client as { transport?: unknown };
      await new Promise<void>((resolve) => {
        connection!.attachment.host.on('close', () => resolve());
        if (client.transport === undefined) resolve();
      });
      return accept(request, { confirmed: true });
    });
    const error = await rejection(
      connection.callTool({ name: 'vanish', arguments: {} }, { timeout: 5_000 }),
    );
    // The SDK reports the closed pipe locally ("Connection closed" / "Not connected").
    expect(error.code).toBe('client_error');
    expect(requests).toHaveLength(1);
  });
});
