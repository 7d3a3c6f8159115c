/**
 * An extension's `inboundRequest` sees every question a server asks, in either era and on the
 * task route, with the server's own params, and waitFor sees the Request it returns. A 2026-07-28
 * inputRequest (a round's or a task's) comes as the server sent it, `_meta` and unknown fields
 * included; a 2025 push comes as the client's SDK hands it over (its schema keeps the `_meta` and
 * drops the fields it does not define, before any handler runs). Real servers over Streamable HTTP:
 * the dual-era fixture (pushes through the v2 SDK's legacy shim, or input_required) and the
 * SEP-2663 tasks fixture.
 */
import { accept, type Request } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, textOf, useDualEraServer, type ClientKind } from './__fixtures__/clients';
import { ANNOTATED_FIELDS } from './__fixtures__/dualEraServer';
import { startTasksServer, type TasksServer } from './__fixtures__/tasksServer';
import type { BridgeExtension } from './index';

const dualEra = useDualEraServer();
let tasks: TasksServer;
beforeAll(async () => {
  tasks = await startTasksServer({ pollInterval: 50 });
});
afterAll(async () => {
  await tasks.close();
});

const trace = { 'example.com/trace': 'trace-7' };
const form = (message: string, field: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } } },
});

type Case = {
  route: string;
  kind: ClientKind;
  url: () => string;
  /** The params the hook must see (exactly, or at least these for a push the SDK parsed). */
  params: Record<string, unknown>;
  exact: boolean;
  text: string;
};

const cases: Case[] = [
  ...(['v1', 'v2-legacy'] as const).map((kind) => ({
    route: 'a 2025 push',
    kind,
    url: () => dualEra.url,
    params: { ...form('Write a note', 'note'), _meta: expect.objectContaining(trace) },
    exact: false,
    text: 'accept:{"note":"trace-7"}',
  })),
  {
    route: "a 2026-07-28 round's inputRequest",
    kind: 'v2-modern',
    url: () => dualEra.url,
    params: { ...form('Write a note', 'note'), ...ANNOTATED_FIELDS },
    exact: true,
    text: 'accept:{"note":"trace-7"}',
  },
  {
    route: "a task's inputRequest",
    kind: 'v2-modern',
    url: () => tasks.url,
    params: {
      ...form('A note?', 'note'),
      requestedSchema: { ...form('A note?', 'note').requestedSchema, required: ['note'] },
      _meta: trace,
      priority: 'high',
    },
    exact: true,
    text: 'note=trace-7',
  },
];

/**
 * Calls `ask_annotated` through a bridge whose extension records what its hook sees and puts the
 * server's trace into the Request; the person answers `note(asked)` (the Requests so far).
 */
async function callTraced(
  kind: ClientKind,
  url: string,
  note: (asked: readonly Request[]) => unknown,
) {
  const seen: Array<{ request: Request; params: Record<string, unknown> }> = [];
  const traced: BridgeExtension = {
    name: 'trace',
    inboundRequest: (request, given) => {
      seen.push({ request, params: given });
      const meta = given['_meta'] as Record<string, unknown> | undefined;
      return { ...request, data: { ...request.data, trace: meta?.['example.com/trace'] } };
    },
  };
  const asked: Request[] = [];
  const { bridge, close } = await openClient(
    kind,
    'http',
    { url },
    {
      waitFor: async (request) => {
        asked.push(request);
        return accept(request, { note: note(asked) } as never);
      },
      extensions: [traced],
    },
  );
  try {
    return { text: textOf(await bridge.callTool({ name: 'ask_annotated' })), seen, asked };
  } finally {
    await close();
  }
}

/** What the rewritten Request shows: the server sees it came through. */
const traceOf = (request: Request | undefined) => String(request?.data?.['trace']);

describe.each(cases)('$route ($kind)', ({ kind, url, params, exact, text }) => {
  it("shows the hook the server's params; waitFor sees the Request it returns", async () => {
    const called = await callTraced(kind, url(), (asked) => traceOf(asked.at(-1)));
    expect(called.text).toBe(text);
    const { seen, asked } = called;
    expect(seen).toHaveLength(1);
    if (exact) expect(seen[0]!.params).toEqual(params);
    else expect(seen[0]!.params).toMatchObject(params);
    const origin = seen[0]!.request.data?.origin;
    expect(origin?.['era']).toBe(kind === 'v2-modern' ? 'modern' : 'legacy');
    expect(typeof origin?.['taskId']).toBe(url() === tasks.url ? 'string' : 'undefined');
    expect(asked.map((request) => request.data?.['trace'])).toEqual(['trace-7']);
  });

  it('shows the hook the same params again for a re-ask, and waitFor sees its rewrite', async () => {
    // The first answer breaks the form's schema (a number for a string): the bridge asks again.
    const called = await callTraced(kind, url(), (asked) =>
      asked.length === 1 ? 42 : traceOf(asked.at(-1)),
    );
    expect(called.text).toBe(text);
    const { seen, asked } = called;
    expect(seen).toHaveLength(2);
    for (const { params: given } of seen)
      if (exact) expect(given).toEqual(params);
      else expect(given).toMatchObject(params);
    expect(asked.map((request) => request.data?.['trace'])).toEqual(['trace-7', 'trace-7']);
    expect(asked[1]!.data?.['attempt']).toBe(2);
    expect(asked[1]!.id).not.toBe(asked[0]!.id);
  });
});
