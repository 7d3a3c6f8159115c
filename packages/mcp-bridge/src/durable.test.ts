/**
 * Durable suspension (modern era): a call returns JSON-safe data instead of holding the loop, and
 * `resume` finishes it later — here from a fresh client in a separate Node process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { accept, decline, WaitforError, type Answer } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  withOpenClient,
  scriptedPerson,
  textOf,
  tsxBinary,
  type Calls,
  type ClientKind,
  type OpenClient,
  useDualEraServer,
} from './__fixtures__/clients';
import { BridgeError, type DurableOutcome, type SamplingHandler, type Suspension } from './index';

const resumeChild = fileURLToPath(new URL('./__fixtures__/resumeChild.ts', import.meta.url));
const childTsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

const server = useDualEraServer();

function resumeInChild(
  suspension: unknown,
  answers: Answer[],
): Promise<{ ok: boolean; outcome?: DurableOutcome; code?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsxBinary, ['--tsconfig', childTsconfig, resumeChild], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      try {
        resolve(JSON.parse(output) as { ok: boolean; outcome?: DurableOutcome });
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

/** Open a `kind` client whose person must never be asked, run `body` with it, and close it. */
const withClient = (
  kind: ClientKind,
  body: (client: OpenClient['client'], bridge: Calls) => Promise<void>,
) => withOpenClient(kind, 'http', { url: server.url }, { waitFor: neverAsked.waitFor }, body);

/** Call ask_form durably: the suspension and its one Request. */
async function suspendAskForm(bridge: Calls) {
  const first = await bridge.callTool({ name: 'ask_form' }, { durable: true });
  const suspension = (first as { suspension: Suspension }).suspension;
  return { suspension, request: suspension.requests[0]! };
}

describe('durable suspension', () => {
  it('suspends, survives JSON, and is resumed (twice) in another process until complete', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const first = await bridge.callTool({ name: 'two_rounds' }, { durable: true });
      expect(first.status).toBe('suspended');
      const suspension = JSON.parse(
        JSON.stringify((first as { suspension: Suspension }).suspension),
      ) as Suspension;
      expect(suspension).toMatchObject({
        version: 2,
        method: 'tools/call',
        params: { name: 'two_rounds' },
        round: 1,
      });
      // Nothing derivable is stored twice: the key and the server live in each Request's origin.
      expect(Object.keys(suspension).sort()).toEqual(
        ['inputRequests', 'method', 'params', 'requests', 'round', 'version'].sort(),
      );
      expect(suspension.requests).toHaveLength(1);
      expect(suspension.requests[0]).toMatchObject({
        kind: 'input',
        prompt: 'Which city?',
        data: {
          origin: {
            server: 'dual-era-fixture',
            tool: 'two_rounds',
            inputKey: 'first',
            era: 'modern',
          },
        },
      });

      const second = await resumeInChild(suspension, [
        accept(suspension.requests[0]!, { city: 'Lima' }),
      ]);
      expect(second.ok).toBe(true);
      expect(second.outcome?.status).toBe('suspended');
      const next = (second.outcome as { suspension: Suspension }).suspension;
      expect(next.round).toBe(2);
      expect(typeof next.requestState).toBe('string');
      expect(next.requests[0]?.prompt).toBe('Confirm Lima?');

      const third = await resumeInChild(next, [accept(next.requests[0]!, { confirm: true })]);
      expect(third.outcome?.status).toBe('complete');
      expect(textOf((third.outcome as { result: unknown }).result)).toBe('city=Lima confirm=true');
      expect(neverAsked.seen).toHaveLength(0);
    });
  });

  it('completes at once when nothing is asked, and works for prompts', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const done = await bridge.callTool({ name: 'slow', arguments: { ms: 1 } }, { durable: true });
      expect(done.status).toBe('complete');
      const prompt = await bridge.getPrompt({ name: 'ask_prompt' }, { durable: true });
      expect(prompt.status).toBe('suspended');
      const suspension = (prompt as { suspension: Suspension }).suspension;
      const finished = await bridge.resume(suspension, [
        accept(suspension.requests[0]!, { topic: 'ice' }),
      ]);
      expect(finished).toMatchObject({
        status: 'complete',
        result: { messages: [{ content: { text: 'Tell me about ice' } }] },
      });
    });
  });

  it('refuses answers that do not match, and invalid forms, without sending anything', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const { suspension, request } = await suspendAskForm(bridge);
      const from = server.received.length;
      const attempts: Array<[Answer[], string]> = [
        [[], 'answer_mismatch'],
        [[accept('elc-unknown', {})], 'answer_mismatch'],
        [[accept(request, { name: 'A' }), accept(request, { name: 'B' })], 'answer_mismatch'],
        [[accept(request, { name: '' })], 'invalid_answer'],
      ];
      for (const [answers, code] of attempts) {
        const error = await bridge.resume(suspension, answers).catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error) && error.code).toBe(code);
        // The per-field messages of an invalid form: on `errors`, as on every waitfor error.
        if (code === 'invalid_answer')
          expect(BridgeError.isInstance(error) && Object.keys(error.errors ?? {})).toEqual([
            'name',
          ]);
      }
      expect(server.received.length).toBe(from);
      const declined = await bridge.resume(suspension, [decline(request)]);
      expect(textOf((declined as { result: unknown }).result)).toBe('decline');
    });
  });

  it('refuses tampered or outdated suspensions with invalid_suspension, before anything is sent', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const { suspension, request } = await suspendAskForm(bridge);
      const key = request.data?.origin?.['inputKey'] as string;
      const entry = suspension.inputRequests[key]!;
      const from = server.received.length;
      const withRequest = (origin: Record<string, unknown>) => ({
        ...suspension,
        requests: [{ ...request, data: { ...request.data, origin } }],
      });
      const tampered: Array<[string, unknown, RegExp]> = [
        // A schema the spec forbids (a nested object): core's form parser refuses it.
        [
          'a nested schema',
          {
            ...suspension,
            inputRequests: {
              [key]: {
                ...entry,
                params: {
                  ...entry.params,
                  requestedSchema: {
                    type: 'object',
                    properties: { a: { type: 'object', properties: {} } },
                  },
                },
              },
            },
          },
          /requestedSchema/,
        ],
        [
          'a stored version 1',
          { ...suspension, version: 1, keys: { [request.id]: key }, serverName: 'x' },
          /version 1 is not 2/,
        ],
        [
          'a Request naming an inherited key',
          withRequest({ server: 'dual-era-fixture', era: 'modern', inputKey: 'constructor' }),
          /matches no inputRequest/,
        ],
        [
          'a Request with an empty server',
          withRequest({ server: '', era: 'modern', inputKey: key }),
          /origin\.server/,
        ],
        ['a missing Request', { ...suspension, requests: [] }, /no request for inputRequests/],
      ];
      for (const [label, value, message] of tampered) {
        const error = await bridge
          .resume(value as Suspension, [accept(request, {})])
          .catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error), label).toBe(true);
        expect((error as BridgeError).code, label).toBe('invalid_suspension');
        expect((error as BridgeError).message, label).toMatch(message);
      }
      // The schema error keeps core's error as its cause.
      const nested = await bridge
        .resume(tampered[0]![1] as Suspension, [])
        .catch((caught: unknown) => caught as BridgeError);
      expect(WaitforError.isInstance((nested as BridgeError).cause)).toBe(true);
      // An Answer whose id is an Object.prototype name is foreign, not silently matched.
      const foreign = await bridge
        .resume(suspension, [accept('constructor', {})])
        .catch((caught: unknown) => caught as BridgeError);
      expect(foreign).toMatchObject({
        code: 'answer_mismatch',
        details: { missing: [request.id], foreign: ['constructor'] },
      });
      expect(server.received.length).toBe(from);
    });
  });

  it('refuses a suspension whose Request shows another question than its inputRequest, sending nothing', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const { suspension, request } = await suspendAskForm(bridge);
      const key = request.data?.origin?.['inputKey'] as string;
      const entry = suspension.inputRequests[key]!;
      const shown = request.data!.schema as { properties: Record<string, object> };
      // The same schema read back with its keys in another order (a jsonb column) is still one form.
      const reordered = JSON.parse(
        JSON.stringify({ ...shown, properties: { ...shown.properties } }),
        // Reverses each object's keys, as a database may hand them back.
        (_key, value: unknown) =>
          value && typeof value === 'object' && !Array.isArray(value)
            ? Object.fromEntries(Object.entries(value).reverse())
            : value,
      ) as object;
      const stored = {
        ...suspension,
        requests: [{ ...request, data: { ...request.data, schema: reordered } }],
      };
      const ok = await bridge.resume(JSON.parse(JSON.stringify(stored)) as Suspension, [
        accept(request, { name: 'Ada', age: 40 }),
      ]);
      expect(textOf((ok as { result: unknown }).result)).toContain('"age":40');

      const from = server.received.length;
      const widened = (schema: typeof shown) => ({
        ...schema,
        properties: { ...schema.properties, age: { ...schema.properties['age'], maximum: 1e9 } },
      });
      const entryWith = (params: object) => ({
        ...suspension,
        inputRequests: { [key]: { ...entry, params: { ...entry.params, ...params } } },
      });
      const requestWith = (changes: object) => ({
        ...suspension,
        requests: [{ ...request, ...changes }],
      });
      const mismatches: Array<[string, unknown]> = [
        // Shown: maximum 150; checked against: maximum 1e9 (the answer would go through).
        [
          "a widened inputRequest's schema",
          entryWith({ requestedSchema: widened(entry.params!['requestedSchema'] as typeof shown) }),
        ],
        [
          "a widened Request's schema",
          requestWith({ data: { ...request.data, schema: widened(shown) } }),
        ],
        ['another prompt', requestWith({ prompt: 'Something else?' })],
        ['another kind', requestWith({ kind: 'approval' })],
        ['a url on a form', requestWith({ url: 'https://evil.example' })],
      ];
      for (const [label, value] of mismatches) {
        const error = await bridge
          .resume(value as Suspension, [accept(request, { name: 'Ada', age: 1_000_000 })])
          .catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error) && error.code, label).toBe('invalid_suspension');
        expect((error as Error).message, label).toMatch(/matches no inputRequest/);
      }
      expect(server.received.length).toBe(from);
    });
  });

  it('refuses a suspension that smuggles inputResponses or a requestState in its params, sending nothing', async () => {
    await withClient('v2-modern', async (client, bridge) => {
      const { suspension, request } = await suspendAskForm(bridge);
      const smuggled = { profile: { action: 'accept', content: { name: 'Mallory' } } };
      const from = server.received.length;
      const edited: Array<[string, unknown, Answer[]]> = [
        [
          'answers nobody gave, no pending Request',
          {
            ...suspension,
            params: { ...suspension.params, inputResponses: smuggled, requestState: 'forged' },
            inputRequests: {},
            requests: [],
          },
          [],
        ],
        [
          'a forged requestState beside a real answer',
          { ...suspension, params: { ...suspension.params, requestState: 'forged' } },
          [accept(request, { name: 'Ada' })],
        ],
        [
          'extra responses beside a real answer',
          { ...suspension, params: { ...suspension.params, inputResponses: smuggled } },
          [accept(request, { name: 'Ada' })],
        ],
      ];
      for (const [label, value, answers] of edited) {
        const error = await bridge
          .resume(value as Suspension, answers)
          .catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error), label).toBe(true);
        expect((error as BridgeError).code, label).toBe('invalid_suspension');
      }
      // Nothing reached the server: no forged answer, no forged state.
      expect(server.received.length).toBe(from);
    });
  });

  it("answers a suspension's sampling and roots inputRequests through the host's handlers at resume, all checked before any is asked", async () => {
    const sampled: unknown[] = [];
    const sampling: SamplingHandler = async (_params, context) => {
      sampled.push(context.origin);
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'fake-model' };
    };
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: neverAsked.waitFor, sampling },
      async (client, bridge) => {
        const { suspension, request } = await suspendAskForm(bridge);
        const llm = {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }] },
        };
        // ask_sampling reads only its `llm` response: the form's answer travels beside it.
        const withSampling: Suspension = {
          ...suspension,
          params: { name: 'ask_sampling' },
          inputRequests: { ...suspension.inputRequests, llm },
        };
        const answers = [accept(request, { name: 'Ada' })];
        const outcome = await bridge.resume(withSampling, answers);
        expect(outcome.status).toBe('complete');
        expect(textOf((outcome as { result: unknown }).result)).toBe('model=fake-model');
        expect(sampled).toEqual([expect.objectContaining({ era: 'modern', inputKey: 'llm' })]);

        // A roots inputRequest this client has no handler for refuses the resume before the
        // sampling handler is asked, and nothing is sent.
        sampled.length = 0;
        const from = server.received.length;
        const withRoots: Suspension = {
          ...withSampling,
          inputRequests: { ...withSampling.inputRequests, roots: { method: 'roots/list' } },
        };
        const error = await bridge.resume(withRoots, answers).catch((caught: unknown) => caught);
        expect((error as BridgeError).code).toBe('unsupported_input_request');
        expect(sampled).toEqual([]);
        expect(server.received.length).toBe(from);
      },
    );
  });

  it('refuses durable on a legacy-era connection', async () => {
    await withClient('v2-legacy', async (client, bridge) => {
      const error = await bridge
        .callTool({ name: 'ask_form' }, { durable: true })
        .catch((caught: unknown) => caught);
      expect((error as BridgeError).code).toBe('durable_unsupported');
    });
  });
});
