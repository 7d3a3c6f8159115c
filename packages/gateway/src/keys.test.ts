/**
 * Same era on both sides: a 2026-07-28 server's questions reach a 2026-07-28 host under the
 * server's own inputRequests keys, with its params, and the host's inputResponses reach the server
 * under those keys. Keys the gateway cannot pass through (too long) get a gateway key, and a key
 * asked again in a later round of the same call is answered in its own round. A raw modern POST
 * shows the keys as the host receives them; a real v2 host pinned to 2026-07-28 shows the loop.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDualEraHttpServer } from '../../mcp-bridge/src/__fixtures__/dualEraServer';
import { modernPost, openHost, textOf } from './__fixtures__/hosts';
import { startKeyedServer } from './__fixtures__/keyedServer';
import { MAX_KEY_LENGTH } from './call';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

type Upstream = { url: string; close(): Promise<void> };

function useGateway(start: () => Promise<Upstream>) {
  const running: { upstream?: Upstream; gateway?: Gateway; endpoint?: HttpEndpoint } = {};
  beforeAll(async () => {
    running.upstream = await start();
    running.gateway = await createGateway({
      upstream: { url: running.upstream.url },
      era: 'modern',
      log: () => undefined,
    });
    running.endpoint = await serveHttp(running.gateway);
  });
  afterAll(async () => {
    await running.endpoint?.close();
    await running.gateway?.close();
    await running.upstream?.close();
  });
  return () => running.endpoint!.url;
}

/** One leg of a raw modern call: its input_required keys, params and state, or its text. */
async function leg(url: string, id: number, args: Record<string, unknown>, extra = {}) {
  const { result, error } = await modernPost(url, id, 'keyed', { arguments: args, ...extra });
  if (error !== undefined) throw new Error(`${error.code} ${error.message}`);
  const inputRequests = (result?.['inputRequests'] ?? {}) as Record<
    string,
    { method: string; params: Record<string, unknown> }
  >;
  return { inputRequests, requestState: result?.['requestState'], text: textOf(result) };
}

const answerAll = (keys: string[], value: (key: string) => string) =>
  Object.fromEntries(
    keys.map((key) => [key, { action: 'accept', content: { value: value(key) } }]),
  );

describe('a 2026-07-28 host in front of a 2026-07-28 server', () => {
  const endpointUrl = useGateway(startKeyedServer);

  test("the host sees the server's own keys and params; its answers reach the server under them", async () => {
    const keys = ['region', 'q1'];
    const first = await leg(endpointUrl(), 1, { keys });
    expect(Object.keys(first.inputRequests)).toEqual(keys);
    expect(first.inputRequests['region']).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Question region',
        requestedSchema: { type: 'object', properties: { value: { type: 'string' } } },
      },
    });
    const done = await leg(
      endpointUrl(),
      2,
      { keys },
      {
        inputResponses: answerAll(keys, (key) => `for-${key}`),
        requestState: first.requestState,
      },
    );
    expect(done.text).toBe('round 1: region=for-region q1=for-q1');
  });

  test('answers on a first call (no requestState) answer the first round under their keys; unknown keys are ignored', async () => {
    const done = await leg(
      endpointUrl(),
      20,
      { keys: ['region'] },
      {
        inputResponses: {
          region: { action: 'accept', content: { value: 'early' } },
          unknown_key: { action: 'accept', content: { value: 'ignored' } },
        },
      },
    );
    // The host is not asked what it already answered: the call completes in one leg.
    expect(done.inputRequests).toEqual({});
    expect(done.text).toBe('round 1: region=early');
  });

  test('answers on a first call under no key the server asks: the host is asked as usual', async () => {
    const first = await leg(
      endpointUrl(),
      21,
      { keys: ['region'] },
      { inputResponses: { other: { action: 'accept', content: { value: 'stray' } } } },
    );
    expect(Object.keys(first.inputRequests)).toEqual(['region']);
    const done = await leg(
      endpointUrl(),
      22,
      { keys: ['region'] },
      { inputResponses: answerAll(['region'], () => 'asked'), requestState: first.requestState },
    );
    expect(done.text).toBe('round 1: region=asked');
  });

  test('a key past the bound is given a gateway key; the answer still reaches the server under its own', async () => {
    const long = 'k'.repeat(MAX_KEY_LENGTH + 1);
    const keys = ['short', long];
    const first = await leg(endpointUrl(), 3, { keys });
    const given = Object.keys(first.inputRequests);
    expect(given).toHaveLength(2);
    expect(given[0]).toBe('short');
    expect(given[1]).toMatch(/^q\d+$/);
    expect(first.inputRequests[given[1]!]?.params['message']).toBe(`Question ${long}`);
    const done = await leg(
      endpointUrl(),
      4,
      { keys },
      {
        inputResponses: answerAll(given, (key) => `for-${key.slice(0, 5)}`),
        requestState: first.requestState,
      },
    );
    expect(done.text).toBe(
      `round 1: short=for-short ${long.slice(0, 12)}=for-q${given[1]!.slice(1)}`,
    );
  });

  test('`__proto__` (which the SDK cannot carry back as a key) is given a gateway key', async () => {
    const keys = ['__proto__', 'plain'];
    const first = await leg(endpointUrl(), 5, { keys });
    const given = Object.keys(first.inputRequests);
    expect(given[0]).toMatch(/^q\d+$/);
    expect(given[1]).toBe('plain');
    const done = await leg(
      endpointUrl(),
      6,
      { keys },
      {
        inputResponses: answerAll(given, (key) => (key === 'plain' ? 'p' : 'proto')),
        requestState: first.requestState,
      },
    );
    expect(done.text).toBe('round 1: __proto__=proto plain=p');
  });

  test('a partial retry: the questions left unanswered are asked again, the answered one is not', async () => {
    const keys = ['one', 'two'];
    const first = await leg(endpointUrl(), 7, { keys });
    const partial = await leg(
      endpointUrl(),
      8,
      { keys },
      { inputResponses: answerAll(['one'], () => '1'), requestState: first.requestState },
    );
    expect(Object.keys(partial.inputRequests)).toEqual(['two']);
    const done = await leg(
      endpointUrl(),
      9,
      { keys },
      { inputResponses: answerAll(['two'], () => '2'), requestState: partial.requestState },
    );
    expect(done.text).toBe('round 1: one=1 two=2');
  });

  test('the same keys asked again in a later round of the call: each round answered in its own', async () => {
    const keys = ['name', 'q2'];
    let state: unknown;
    let responses: Record<string, unknown> | undefined;
    for (let round = 1; round <= 3; round += 1) {
      const step = await leg(
        endpointUrl(),
        10 + round,
        { keys, rounds: 3 },
        responses === undefined ? {} : { inputResponses: responses, requestState: state },
      );
      expect(Object.keys(step.inputRequests)).toEqual(keys);
      state = step.requestState;
      responses = answerAll(keys, (key) => `${key}@${round}`);
    }
    const done = await leg(
      endpointUrl(),
      20,
      { keys, rounds: 3 },
      { inputResponses: responses, requestState: state },
    );
    expect(done.text).toBe('round 3: name=name@3 q2=q2@3');
  });

  test('an answer under a key of an earlier round (a replayed state) is refused', async () => {
    const keys = ['name'];
    const first = await leg(endpointUrl(), 30, { keys, rounds: 2 });
    const responses = answerAll(keys, () => 'one');
    const second = await leg(
      endpointUrl(),
      31,
      { keys, rounds: 2 },
      { inputResponses: responses, requestState: first.requestState },
    );
    expect(Object.keys(second.inputRequests)).toEqual(keys);
    await expect(
      leg(
        endpointUrl(),
        32,
        { keys, rounds: 2 },
        {
          inputResponses: responses,
          requestState: first.requestState,
        },
      ),
    ).rejects.toThrow(/-32602 Invalid or expired requestState/);
  });

  test("a real v2 host's loop answers the server's keys", async () => {
    const host = await openHost('v2-modern', { url: endpointUrl() }, async (params) => ({
      action: 'accept',
      content: { value: String(params['message']).slice('Question '.length).toUpperCase() },
    }));
    try {
      const result = await host.callTool('keyed', { keys: ['city', 'date'], rounds: 2 });
      expect(textOf(result)).toBe('round 2: city=CITY date=DATE');
      expect(host.asked.map((params) => params['message'])).toEqual([
        'Question city',
        'Question date',
        'Question city',
        'Question date',
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('the dual-era fixture pinned to 2026-07-28', () => {
  const endpointUrl = useGateway(startDualEraHttpServer);

  test('two rounds under the server keys first and second', async () => {
    const first = await modernPost(endpointUrl(), 1, 'two_rounds');
    const firstKeys = Object.keys((first.result?.['inputRequests'] ?? {}) as object);
    expect(firstKeys).toEqual(['first']);
    const second = await modernPost(endpointUrl(), 2, 'two_rounds', {
      inputResponses: { first: { action: 'accept', content: { city: 'Oslo' } } },
      requestState: first.result?.['requestState'],
    });
    expect(Object.keys((second.result?.['inputRequests'] ?? {}) as object)).toEqual(['second']);
    const done = await modernPost(endpointUrl(), 3, 'two_rounds', {
      inputResponses: { second: { action: 'accept', content: { confirm: true } } },
      requestState: second.result?.['requestState'],
    });
    expect(textOf(done.result)).toBe('city=Oslo confirm=true');
  });
});
