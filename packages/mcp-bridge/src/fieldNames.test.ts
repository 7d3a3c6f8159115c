/**
 * What the server receives is what the person answered, whatever the fields are called: a property
 * over field names (names of Object.prototype, `__proto__`, unicode, the empty name). A real
 * server (`ask_fields`, sent raw) asks a form with those names; the person fills in every field
 * the Request shows; the JSON body the client POSTed back carries every one, read off the wire
 * before any SDK schema reshapes it. Both eras, clients of both SDK generations, through
 * `attachWaitFor` and through `connect`.
 *
 * One exception, the SDKs' (v2 2.4.0 and v1 1.32.2): in the legacy era each parses a pushed
 * request's params before any handler sees them, and that parse drops a property named `__proto__`
 * from `requestedSchema`.
 * The field is required here, so the bridge finds `required` naming a property that is not there
 * and refuses the question (-32602) before anyone is asked: the server is told, nothing is lost.
 */
import { accept, type Request } from '@waitfor/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgePaths, openClient, textOf, type OpenClient } from './__fixtures__/clients';
import { startHostileHttpServer, type HostileHttpServer } from './__fixtures__/hostileHttp';

import { entriesOf, own } from '../../core/src/__fixtures__/ownRecords';

let server: HostileHttpServer;
beforeAll(async () => {
  server = await startHostileHttpServer({ recordBodies: true });
});
afterAll(async () => {
  await server?.close();
});

const fieldName = fc.oneof(
  fc.constantFrom('__proto__', '', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const fieldNames = fc.uniqueArray(fieldName, { minLength: 1, maxLength: 5 });

/** The person fills in every field the Request shows, each with a value of its own. */
const fillEvery = (request: Request) =>
  accept(
    request,
    own(
      Object.getOwnPropertyNames((request.data?.schema as { properties: object }).properties).map(
        (name, index) => [name, `value ${index}`],
      ),
    ),
  );

/** The accepted content the client sent back on the wire: a modern retry, or a legacy response. */
function contentSent(bodies: unknown[]): unknown {
  type Accepted = { action?: unknown; content?: unknown } | undefined;
  for (const body of bodies as Array<{
    params?: { inputResponses?: { fields?: Accepted } };
    result?: Accepted;
  } | null>) {
    const modern = body?.params?.inputResponses?.fields;
    if (modern?.action === 'accept') return modern.content;
    if (body?.result?.action === 'accept') return body.result.content;
  }
  return undefined;
}

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind, era) => {
  // See above: the SDKs' legacy-era parse drops `__proto__` before the bridge sees the question.
  const sdkDropsProto = era === 'legacy';
  let opened: OpenClient;
  const asked: Request[] = [];
  beforeAll(async () => {
    opened = await openClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: async (request) => (asked.push(request), fillEvery(request)) },
      path,
    );
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('every field the person answered reaches the server', async () => {
    await fc.assert(
      fc.asyncProperty(fieldNames, async (names) => {
        server.bodies.length = 0;
        asked.length = 0;
        const result = await opened.bridge.callTool({ name: 'ask_fields', arguments: { names } });
        if (sdkDropsProto && names.includes('__proto__')) {
          expect(textOf(result)).toBe('refused: -32602');
          expect(asked).toEqual([]);
          // The refusal names the field the SDK dropped.
          const refusal = server.log.entries.filter((entry) => entry.kind === 'refusal').pop();
          expect((refusal?.value as { message?: string }).message).toContain('"__proto__"');
          return;
        }
        expect(textOf(result)).not.toMatch(/refused/);
        // The person was shown every field…
        const shown = (asked[0]?.data?.schema as { properties: object }).properties;
        expect(Object.getOwnPropertyNames(shown).sort()).toEqual([...names].sort());
        // …and the server received every answer.
        const expected = own(
          names.map((name) => [name, `value ${Object.getOwnPropertyNames(shown).indexOf(name)}`]),
        );
        expect(entriesOf(contentSent(server.bodies))).toEqual(entriesOf(expected));
      }),
      { numRuns: 25 },
    );
  });
});
