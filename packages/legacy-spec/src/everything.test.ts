/**
 * `@modelcontextprotocol/server-everything` (a v1 SDK server) over stdio, tool `trigger-url-elicitation`:
 * the request path (pushed URL elicitation/create) and the error path (`errorPath: true`: -32042, then a
 * successful retry), with a v2 and a v1 client. This server never sends
 * notifications/elicitation/complete, so the completion wait is the bounded one.
 */
import { accept, decline, type Request, type WaitFor } from '@waitfor/core';
import { legacySpecErrorOf, type LegacySpecOptions } from './index';
import { describe, expect, it } from 'vitest';
import { everythingServer, type ClientKind } from './__fixtures__/openConnection';
import { legacySpecConnections, textOf as joinedText } from './__fixtures__/legacySpecConnections';

// server-everything answers in several text blocks: one per line.
const textOf = (result: Record<string, unknown>) => joinedText(result, '\n');

const tool = 'trigger-url-elicitation';

const connections = legacySpecConnections();

describe.each<ClientKind>(['v2', 'v1'])(
  'server-everything trigger-url-elicitation with a %s client',
  (client) => {
    const start = async (waitFor: WaitFor, options: LegacySpecOptions = {}) => {
      return connections.start(client, everythingServer(), waitFor, options);
    };

    it('request path: keeps the elicitationId, records consent, and bounds the wait for a completion that never comes', async () => {
      const seen: Request[] = [];
      const { legacy, connection } = await start(async (request) => {
        seen.push(request);
        return accept(request);
      });
      const result = await connection.callTool(tool, {
        url: 'https://example.com/request-path',
        elicitationId: 'ev-request',
      });

      expect(textOf(result)).toContain('User completed the URL elicitation flow');
      expect(textOf(result)).toContain('Elicitation ID: ev-request');
      expect(seen).toEqual([
        expect.objectContaining({
          kind: 'authorization',
          url: 'https://example.com/request-path',
          prompt: 'Please open the link to complete this action.',
          data: expect.objectContaining({
            elicitationId: 'ev-request',
            origin: expect.objectContaining({ era: 'legacy' }),
          }),
        }),
      ]);
      expect(seen[0]?.id).not.toBe('ev-request');
      expect(legacy.get('ev-request')).toMatchObject({
        state: 'consented',
        request: { id: seen[0]?.id },
      });

      const timedOut = await legacy
        .waitForCompletion('ev-request', { timeoutMs: 50 })
        .catch((error: unknown) => error);
      expect(legacySpecErrorOf(timedOut)?.code).toBe('completion_timeout');
      const controller = new AbortController();
      const waiting = legacy.waitForCompletion(seen[0]!.id, {
        signal: controller.signal,
        timeoutMs: Infinity,
      });
      controller.abort();
      expect(legacySpecErrorOf(await waiting.catch((error: unknown) => error))?.code).toBe(
        'aborted',
      );
      expect(legacy.get('ev-request')?.state).toBe('consented');
    });

    it('error path: -32042 becomes an authorization Request, then one retry succeeds', async () => {
      const seen: Request[] = [];
      const { legacy, connection } = await start(
        async (request) => {
          seen.push(request);
          return accept(request);
        },
        { completionTimeoutMs: 100 },
      );
      // Every state each elicitation went through, as the snapshot published them.
      const states = new Map<string, string[]>();
      legacy.subscribe(() => {
        for (const entry of legacy.getSnapshot()) {
          const seen = states.get(entry.elicitationId) ?? [];
          if (seen.at(-1) !== entry.state) seen.push(entry.state);
          states.set(entry.elicitationId, seen);
        }
      });
      const result = await connection.callTool(tool, {
        url: 'https://example.com/error-path',
        elicitationId: 'ev-error',
        errorPath: true,
      });

      expect(textOf(result)).toContain('User completed the URL elicitation flow');
      expect(textOf(result)).toContain('Elicitation ID: ev-error');
      // First the prerequisite from the -32042 error, then the tool's own URL on the retry.
      expect(seen.map((request) => request.url)).toEqual([
        'https://modelcontextprotocol.io',
        'https://example.com/error-path',
      ]);
      const [prerequisite] = seen as [Request];
      expect(prerequisite).toMatchObject({
        kind: 'authorization',
        prompt: 'Open this link to satisfy the prerequisite, then retry the request.',
        data: { origin: { era: 'legacy', tool } },
      });
      const prerequisiteId = String(prerequisite.data?.['elicitationId']);
      expect(prerequisiteId).toMatch(/^[0-9a-f-]{36}$/);
      expect(states.get(prerequisiteId)).toContain('consented');
      // No completion ever comes: once the call ended and completionTimeoutMs passed, the consent
      // closes instead of waiting forever.
      await expect
        .poll(() => legacy.get(prerequisiteId))
        .toMatchObject({ state: 'closed', reason: 'call_ended' });
    });

    it('error path: a declined prerequisite ends in elicitation_refused with the Answer, and no retry', async () => {
      const seen: Request[] = [];
      const { connection } = await start(async (request) => {
        seen.push(request);
        return decline(request);
      });
      const failure = await connection
        .callTool(tool, {
          url: 'https://example.com/declined',
          elicitationId: 'ev-declined',
          errorPath: true,
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );

      const error = legacySpecErrorOf(failure);
      expect(error?.code).toBe('elicitation_refused');
      expect(error?.answers).toEqual([{ id: seen[0]?.id, ok: false, reason: 'declined' }]);
      expect(seen).toHaveLength(1);
    });
  },
);
