/**
 * Progress in both eras, as the SDK names the options: `onprogress` sees the server's
 * notifications, `resetTimeoutOnProgress` keeps a call alive past its timeout while progress
 * arrives, and `maxTotalTimeout` bounds it anyway. Against the fixture's `progress` tool.
 */
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { textOf, useDualEraServer } from '../__fixtures__/clients';
import { BridgeError, connect } from '../index';

const server = useDualEraServer();

/**
 * A call that ran out of time. The legacy era's budget is the bridge's own (`timeout`); a modern
 * leg's, and a total bound in either era, are the SDK's, which the bridge reports as client_error.
 */
const timedOut = (error: unknown): boolean =>
  BridgeError.isInstance(error) &&
  (error.code === 'timeout' ||
    (error.code === 'client_error' && /timed out|total timeout/i.test(error.message)));

describe.each(['legacy', 'modern'] as const)('progress (%s era)', (era) => {
  const open = () =>
    connect({ url: server.url }, { era, waitFor: async (request) => accept(request) });

  it('hands every progress notification to onprogress', async () => {
    const connection = await open();
    try {
      const seen: Array<{ progress: number; total?: number }> = [];
      const result = await connection.callTool(
        { name: 'progress', arguments: { steps: 3, ms: 0 } },
        { onprogress: (progress) => seen.push(progress) },
      );
      expect(textOf(result)).toBe('progressed 3');
      expect(seen.map(({ progress, total }) => ({ progress, total }))).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
    } finally {
      await connection.close();
    }
  });

  it('resetTimeoutOnProgress: progress keeps a call alive past its timeout', async () => {
    const connection = await open();
    try {
      // 6 steps of 200 ms: 1.2 s in all, against a 600 ms timeout that each step restarts.
      const call = { name: 'progress', arguments: { steps: 6, ms: 200 } };
      const failure = await connection
        .callTool(call, { timeout: 600 })
        .catch((error: unknown) => error);
      expect(timedOut(failure), String(failure)).toBe(true);
      const result = await connection.callTool(call, {
        timeout: 600,
        resetTimeoutOnProgress: true,
        onprogress: () => {},
      });
      expect(textOf(result)).toBe('progressed 6');
    } finally {
      await connection.close();
    }
  });

  it('maxTotalTimeout bounds a call whatever the progress', async () => {
    const connection = await open();
    try {
      // The call that completes above with resetTimeoutOnProgress alone.
      const failure = await connection
        .callTool(
          { name: 'progress', arguments: { steps: 6, ms: 200 } },
          {
            timeout: 600,
            resetTimeoutOnProgress: true,
            maxTotalTimeout: 900,
            onprogress: () => {},
          },
        )
        .catch((error: unknown) => error);
      expect(timedOut(failure), String(failure)).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
