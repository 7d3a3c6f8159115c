/**
 * A deliberately hostile MCP server for the bridge's hostile suite, built on the v2 SDK
 * (`@modelcontextprotocol/server`). One factory serves both eras: the legacy era pushes
 * `elicitation/create` (or worse) while a tool call is open; the modern era returns
 * `input_required` results. Every tool records what the client sent back in a shared log, so a test
 * can count answers on the server side.
 *
 * Tools (both eras unless noted):
 * - `confirm`: a well-formed form question (`confirmed: boolean`, required).
 * - `malformed_params`: an `elicitation/create` whose params break the schema (no `message`,
 *   `requestedSchema` is a string).
 * - `bad_schema`: a form whose schema nests an object property (the spec forbids nesting).
 * - `unknown_method`: an input request / pushed request with a method no client knows.
 * - `endless` (modern): answers every round with another `input_required`, forever.
 * - `big_state` (modern): a 1 MB `requestState` with non-ASCII characters, checked byte-exact on retry.
 * - `vanish`: asks a question, then calls `options.onVanish` 100 ms later (the HTTP starter closes
 *   the server, the stdio entry exits): the server disconnects mid-round.
 * - `ask_fields {names}`: a form of required string fields named `names` (any names, sent raw).
 * - `ask_and_return` (legacy): pushes a question on the call's own stream and returns at once,
 *   without waiting for the answer (logged as 'answer' / 'refusal' whenever it comes).
 * - Oversize questions, scaled by the `size` argument (built only when called):
 *   `huge_default` (a string field whose default is `size` characters), `many_choices` (a
 *   multi-select of `size` choices, every one in its default), `many_fields` (`size` properties,
 *   all required, each with a default), `many_questions` (`size` inputRequests in one round; in
 *   the legacy era `size` concurrent pushes in one call, each answer logged); modern only: `huge_state` (a
 *   `size`-character requestState). Answered, they report what came back ("accepted N keys" /
 *   "state-ok" / "answered N").
 */
import { randomBytes } from 'node:crypto';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { inputRequired, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** One thing the client sent back to a hostile tool. */
export interface HostileEntry {
  tool: string;
  era: 'legacy' | 'modern';
  /** 'call' = a tools/call arrived; 'answer' = a legacy elicitation result arrived; 'refusal' = the client answered a pushed request with an error. */
  kind: 'call' | 'answer' | 'refusal';
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  value?: unknown;
}

/** The server-side record of one hostile server: everything the client sent back, in order. */
export interface HostileLog {
  entries: HostileEntry[];
  /** The 1 MB state `big_state` handed out, to compare against what came back. */
  bigState?: string;
}

/** A fresh empty log. */
export function createHostileLog(): HostileLog {
  return { entries: [] };
}

/** How long each `many_questions` push waits for its answer (the suites' deadlines are shorter). */
const MANY_QUESTIONS_WAIT_MS = 600_000;

const confirmSchema = {
  type: 'object' as const,
  properties: { confirmed: { type: 'boolean' as const, description: 'Confirm?' } },
  required: ['confirmed'],
};

const nestedSchema = {
  type: 'object',
  properties: {
    address: { type: 'object', properties: { street: { type: 'string' } } },
  },
};

// Non-ASCII and JSON-escape-worthy characters, so a client that re-encodes the state gets caught.
const stateAlphabet = 'abcXYZ019-_éß€😀"\\\n\t';

function makeBigState(): string {
  const bytes = randomBytes(1024);
  const letters = Array.from(bytes, (byte) => stateAlphabet[byte % stateAlphabet.length]).join('');
  let state = '';
  while (state.length < 1024 * 1024) state += letters;
  return state.slice(0, 1024 * 1024);
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Builds the hostile server for one era; `log` collects what the client sends back. */
export function createHostileServer(
  era: 'legacy' | 'modern',
  log: HostileLog,
  options: { onVanish?: () => void } = {},
): McpServer {
  const server = new McpServer(
    { name: 'hostile', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );

  const record = (entry: HostileEntry): void => {
    log.entries.push(entry);
  };

  // Legacy era: push a raw request (the SDK's builders would refuse hostile ones) inside the call.
  const pushRaw = (tool: string, ctx: ServerContext, method: string, params: object) =>
    push(tool, () => ctx.mcpReq.send({ method, params } as never, z.object({}).passthrough(), {}));

  // Legacy era: push a request inside the open tool call and report what came back.
  const push = async (tool: string, send: () => Promise<unknown>): Promise<CallToolResult> => {
    try {
      const value = await send();
      record({ tool, era, kind: 'answer', value });
      return text(JSON.stringify(value));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      record({
        tool,
        era,
        kind: 'refusal',
        value: { code, message: String((error as Error).message) },
      });
      return { content: [{ type: 'text', text: `refused: ${String(code)}` }], isError: true };
    }
  };

  const called = (tool: string, ctx: ServerContext): HostileEntry => {
    const state = ctx.mcpReq.requestState();
    const entry: HostileEntry = { tool, era, kind: 'call' };
    if (ctx.mcpReq.inputResponses !== undefined) entry.inputResponses = ctx.mcpReq.inputResponses;
    if (typeof state === 'string') entry.requestState = state;
    record(entry);
    return entry;
  };

  server.registerTool(
    'confirm',
    { description: 'Asks a well-formed yes/no form.' },
    async (ctx) => {
      const entry = called('confirm', ctx);
      if (era === 'legacy') {
        return push('confirm', () =>
          ctx.mcpReq.elicitInput({
            mode: 'form',
            message: 'Confirm the transfer?',
            requestedSchema: confirmSchema,
          }),
        );
      }
      if (entry.inputResponses?.confirm !== undefined)
        return text(JSON.stringify(entry.inputResponses.confirm));
      return inputRequired({
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { message: 'Confirm the transfer?', requestedSchema: confirmSchema },
          },
        },
      });
    },
  );

  const hostileRequest =
    (tool: string, method: string, params: Record<string, unknown>) =>
    async (ctx: ServerContext) => {
      const entry = called(tool, ctx);
      if (era === 'legacy') return pushRaw(tool, ctx, method, params);
      if (entry.inputResponses !== undefined)
        return text(`retried with ${JSON.stringify(entry.inputResponses)}`);
      // Hand-built on purpose: the builder helpers would refuse this shape.
      return {
        resultType: 'input_required',
        inputRequests: { hostile: { method, params } },
      } as never;
    };

  const sized = { inputSchema: z.object({ size: z.number().int().min(1) }) };
  const form = (message: string, requestedSchema: Record<string, unknown>) => ({
    mode: 'form',
    message,
    requestedSchema,
  });
  const oversizeForms: Record<string, (size: number) => Record<string, unknown>> = {
    huge_default: (size) =>
      form('A long default', {
        type: 'object',
        properties: { text: { type: 'string', default: 'a'.repeat(size) } },
      }),
    many_choices: (size) => {
      const choices = Array.from({ length: size }, (_, index) => `c${index}`);
      return form('Pick many', {
        type: 'object',
        properties: {
          picks: { type: 'array', items: { type: 'string', enum: choices }, default: choices },
        },
      });
    },
    many_fields: (size) => {
      const names = Array.from({ length: size }, (_, index) => `f${index}`);
      return form('Fill many', {
        type: 'object',
        properties: Object.fromEntries(
          names.map((name) => [name, { type: 'string', default: 'x' }]),
        ),
        required: names,
      });
    },
  };
  // URL mode: the server's strings are bounded too (url, elicitationId), not only its forms.
  const url = (link: string, elicitationId: string) => ({
    mode: 'url',
    message: 'Open the link',
    url: link,
    elicitationId,
  });
  const oversizeUrls: Record<string, (size: number) => Record<string, unknown>> = {
    long_url: (size) => url(`https://example.com/${'u'.repeat(size)}`, 'e-1'),
    long_elicitation_id: (size) => url('https://example.com/a', 'e'.repeat(size)),
  };
  for (const [tool, build] of Object.entries({ ...oversizeForms, ...oversizeUrls })) {
    server.registerTool(
      tool,
      { description: `Asks an oversize form (${tool})`, ...sized },
      async ({ size }, ctx) => {
        const entry = called(tool, ctx);
        if (era === 'legacy') return pushRaw(tool, ctx, 'elicitation/create', build(size));
        const answer = entry.inputResponses?.['big'] as { content?: object } | undefined;
        if (answer !== undefined)
          return text(`accepted ${Object.keys(answer.content ?? {}).length} keys`);
        return {
          resultType: 'input_required',
          inputRequests: { big: { method: 'elicitation/create', params: build(size) } },
        } as never;
      },
    );
  }
  server.registerTool(
    'huge_state',
    { description: 'An oversize requestState', ...sized },
    async ({ size }, ctx) => {
      const entry = called('huge_state', ctx);
      if (entry.requestState !== undefined) return text('state-ok');
      return inputRequired({
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { message: 'Confirm with a huge state?', requestedSchema: confirmSchema },
          },
        },
        requestState: 's'.repeat(size),
      });
    },
  );
  server.registerTool(
    'many_questions',
    { description: 'Too many inputRequests', ...sized },
    async ({ size }, ctx) => {
      const entry = called('many_questions', ctx);
      // Legacy era: `size` pushes at once inside the one call, answered in any order; each
      // answer is logged as it comes (a gateway's bound cancels some long before the others).
      if (era === 'legacy') {
        const asked = Array.from({ length: size }, (_, index) =>
          ctx.mcpReq
            .elicitInput(
              { mode: 'form', message: `Question ${index}?`, requestedSchema: confirmSchema },
              // The SDK's default 60 s: a person answering a thousand questions takes longer,
              // and so does a loaded machine delivering them (the tests' own deadlines decide).
              { timeout: MANY_QUESTIONS_WAIT_MS },
            )
            .then((value) => {
              record({ tool: 'many_questions', era, kind: 'answer', value });
              return value;
            }),
        );
        const answers = await Promise.all(asked);
        return text(`answered ${answers.filter((answer) => answer.action === 'accept').length}`);
      }
      if (entry.inputResponses !== undefined)
        return text(`answered ${Object.keys(entry.inputResponses).length}`);
      return inputRequired({
        inputRequests: Object.fromEntries(
          Array.from({ length: size }, (_, index) => [
            `q${index}`,
            {
              method: 'elicitation/create',
              params: { message: `Question ${index}?`, requestedSchema: confirmSchema },
            },
          ]),
        ),
      });
    },
  );

  // A form whose fields are named as the client says (`names`), all required strings; answered,
  // it reports `answered` (the client's wire body is what a test reads, not this SDK's reading).
  server.registerTool(
    'ask_fields',
    {
      description: 'Asks a form with the given field names',
      inputSchema: z.object({ names: z.array(z.string()) }),
    },
    async ({ names }, ctx) => {
      const entry = called('ask_fields', ctx);
      const properties: Record<string, unknown> = {};
      for (const name of names)
        Object.defineProperty(properties, name, {
          value: { type: 'string' },
          enumerable: true,
          writable: true,
          configurable: true,
        });
      const params = {
        mode: 'form',
        message: 'Fill in every field',
        requestedSchema: { type: 'object', properties, required: names },
      };
      // Raw, so no SDK schema reshapes the names on the way out.
      if (era === 'legacy') return pushRaw('ask_fields', ctx, 'elicitation/create', params);
      if (entry.inputResponses !== undefined) return text('answered');
      return {
        resultType: 'input_required',
        inputRequests: { fields: { method: 'elicitation/create', params } },
      } as never;
    },
  );

  server.registerTool(
    'malformed_params',
    { description: 'Sends elicitation params that break the schema.' },
    hostileRequest('malformed_params', 'elicitation/create', {
      mode: 'form',
      requestedSchema: 'not a schema',
    }),
  );
  server.registerTool(
    'bad_schema',
    { description: 'Sends a form schema with a nested object.' },
    hostileRequest('bad_schema', 'elicitation/create', {
      message: 'Where do you live?',
      requestedSchema: nestedSchema,
    }),
  );
  server.registerTool(
    'unknown_method',
    { description: 'Sends an input request with an unknown method.' },
    hostileRequest('unknown_method', 'widgets/create', { size: 3 }),
  );

  server.registerTool(
    'endless',
    { description: 'Never completes: every round asks again.' },
    async (ctx) => {
      called('endless', ctx);
      const round = log.entries.filter((entry) => entry.tool === 'endless').length;
      if (era === 'legacy') return text('endless is a modern-era tool');
      return inputRequired({
        inputRequests: {
          [`again-${round}`]: {
            method: 'elicitation/create',
            params: { message: `Round ${round}: confirm again?`, requestedSchema: confirmSchema },
          },
        },
        requestState: `round-${round}`,
      });
    },
  );

  server.registerTool(
    'big_state',
    { description: 'Hands out a 1 MB requestState.' },
    async (ctx) => {
      const entry = called('big_state', ctx);
      if (era === 'legacy') return text('big_state is a modern-era tool');
      if (entry.requestState !== undefined) {
        return text(entry.requestState === log.bigState ? 'state-ok' : 'state-mismatch');
      }
      log.bigState = makeBigState();
      return inputRequired({
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { message: 'Confirm with a big state?', requestedSchema: confirmSchema },
          },
        },
        requestState: log.bigState,
      });
    },
  );

  server.registerTool(
    'vanish',
    { description: 'Asks, then the server goes away mid-round.' },
    async (ctx) => {
      called('vanish', ctx);
      setTimeout(() => options.onVanish?.(), 100);
      if (era === 'legacy') {
        return push('vanish', () =>
          ctx.mcpReq.elicitInput({
            mode: 'form',
            message: 'Still there?',
            requestedSchema: confirmSchema,
          }),
        );
      }
      return inputRequired({
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: { message: 'Still there?', requestedSchema: confirmSchema },
          },
        },
      });
    },
  );

  server.registerTool(
    'ask_and_return',
    { description: 'Pushes a question, then returns without waiting for its answer.' },
    async (ctx) => {
      called('ask_and_return', ctx);
      if (era === 'modern') return text('ask_and_return is a legacy-era tool');
      // ctx.mcpReq.send relates the push to this call, so it travels ahead of the result on the
      // same stream: the client sees the question open before the call completes.
      void push('ask_and_return', () =>
        ctx.mcpReq.send(
          {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'Still needed?', requestedSchema: confirmSchema },
          } as never,
          z.object({}).passthrough(),
          {},
        ),
      );
      return text('returned before the answer');
    },
  );

  return server;
}
