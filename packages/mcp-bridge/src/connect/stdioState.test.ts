/**
 * Over stdio (the '/node' entry) nothing reconnects: a server process that dies closes the
 * connection — the state reads `closed` and a question open at that moment ends with reason
 * `connection_lost`.
 */
import type { Answer, Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { stdioFixture, tsxBinary } from '../__fixtures__/clients';
import { CONNECTION_LOST } from '../index';
import { connect } from '../node';

describe('connect over stdio: the state when the server dies', () => {
  it('closes, and the open question ends with connection_lost', async () => {
    const asked: Request[] = [];
    const answers: Answer[] = [];
    const connection = await connect(
      { command: tsxBinary, args: [stdioFixture] },
      {
        era: 'legacy',
        waitFor: (request) => {
          asked.push(request);
          return new Promise(() => {});
        },
      },
    );
    try {
      connection.attachment.on('answer', ({ answer }) => answers.push(answer));
      const call = connection.callTool({ name: 'ask_form' }).then(
        () => 'resolved',
        () => 'rejected',
      );
      await expect.poll(() => asked.length, { timeout: 10_000 }).toBe(1);
      const { pid } = (connection.client as { transport: { pid: number | null } }).transport;
      process.kill(pid ?? 0, 'SIGKILL');
      expect(await call).toBe('rejected');
      await expect.poll(() => connection.state.getSnapshot().status).toBe('closed');
      expect(answers.map((answer) => answer.reason)).toEqual([CONNECTION_LOST]);
      expect(connection.attachment.openRequests()).toEqual([]);
    } finally {
      await connection.close();
    }
  }, 30_000);
});
