/**
 * A durable call suspends in this process and is resumed in another (spawned with tsx): the resumed
 * call's span continues the original call's trace, found in the suspension's `params._meta`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { accept, type Answer } from '@waitfor/core';
import type { Suspension } from '@waitfor/mcp-bridge';
import { describe, expect, it, vi } from 'vitest';
import {
  scriptedPerson,
  tsxBinary,
  useDualEraServer,
  withOpenClient,
} from '../../mcp-bridge/src/__fixtures__/clients';
import { createTestSdk } from './__fixtures__/sdk';
import { createTelemetry } from './index';

const resumeChild = fileURLToPath(new URL('./__fixtures__/resumeChild.ts', import.meta.url));
const childTsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

const server = useDualEraServer();

interface ChildSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  links: Array<{ traceId: string; spanId: string }>;
  attributes: Record<string, unknown>;
}

function resumeInChild(
  suspension: unknown,
  answers: Answer[],
): Promise<{ ok: boolean; status?: string; spans?: ChildSpan[]; message?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsxBinary, ['--tsconfig', childTsconfig, resumeChild], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(output) as { ok: boolean });
      } catch (error) {
        reject(new Error(`child printed ${output}`, { cause: error }));
      }
    });
    child.stdin.end(JSON.stringify({ url: server.url, suspension, answers }));
  });
}

const neverAsked = scriptedPerson(() => {
  throw new Error('durable calls must not ask in-process');
});

describe('durable suspension', () => {
  it('links the call resumed in another process to the original trace', async () => {
    const sdk = createTestSdk();
    const telemetry = createTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: neverAsked.waitFor, extensions: [telemetry] },
      async (_client, bridge) => {
        const first = await bridge.callTool({ name: 'two_rounds' }, { durable: true });
        expect(first.status).toBe('suspended');
        const suspension = JSON.parse(
          JSON.stringify((first as { suspension: Suspension }).suspension),
        ) as Suspension;
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(1));
        const original = sdk.spans()[0]!;
        expect(original.attributes).toMatchObject({
          'waitfor.call.status': 'suspended',
          'waitfor.call.rounds': 1,
        });
        const { traceId, spanId } = original.spanContext();
        // The suspension keeps the call's params, and with them its trace context.
        expect(suspension.params['_meta']).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });

        const resumed = await resumeInChild(suspension, [
          accept(suspension.requests[0]!, { city: 'Paris' }),
        ]);
        expect(resumed).toMatchObject({ ok: true, status: 'suspended' });
        const [span] = resumed.spans!;
        expect(resumed.spans).toHaveLength(1);
        expect(span).toMatchObject({
          name: 'tools/call two_rounds',
          traceId,
          parentSpanId: spanId,
          attributes: { 'waitfor.call.status': 'suspended', 'waitfor.call.rounds': 2 },
        });
        expect(neverAsked.seen).toHaveLength(0);
      },
    );
    await sdk.shutdown();
  });
});
