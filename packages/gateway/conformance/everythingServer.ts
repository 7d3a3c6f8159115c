/**
 * The server the official conformance suite's server scenarios expect ("everything": the scenario
 * tools, prompts and resources, by the names and answers each scenario describes), written once on
 * the v2 `@modelcontextprotocol/server` SDK so one definition serves both eras. Its questions
 * (elicitation, sampling) are `inputRequired` results: a 2026-07-28 client gets them as such, a
 * 2025 session as real pushes (the SDK's legacy shim). Served over the gateway's own HTTP endpoint
 * code (`serveMcpHttp`), so a run against it directly and one through the gateway differ only by
 * the gateway.
 */
import {
  completable,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  type InputResponseView,
  McpServer,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { serveMcpHttp, type HttpEndpoint } from '../src/http';
import { registerInputRequiredTools, stateCodec } from './inputRequiredTools';

/** A 1×1 PNG and a silent 8-sample WAV: real media, as small as they come. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const WAV = 'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const responsesOf = (context: ServerContext) => context.mcpReq.inputResponses ?? {};
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

/** What the person answered, as the scenarios read it back. */
function answered(prefix: string, view: InputResponseView): string {
  if (view.kind !== 'elicit') return `${prefix}: ${view.kind}`;
  return `${prefix}: action=${view.action}, content=${JSON.stringify(view.content ?? {})}`;
}

/** A tool that asks one form and reports the person's answer. */
function formTool(server: McpServer, name: string, message: string, schema: object) {
  server.registerTool(name, { description: `Asks: ${message}` }, async (context) => {
    const view = inputResponse(responsesOf(context), 'form');
    if (view.kind === 'missing')
      return inputRequired({
        inputRequests: {
          form: inputRequired.elicit({ message, requestedSchema: schema as never }),
        },
      });
    return text(answered('Elicitation completed', view));
  });
}

const defaultsSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

const enumsSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

const contactSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const regionSchema = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
  required: ['region'],
};

function registerContentTools(server: McpServer): void {
  server.registerTool('test_simple_text', { description: 'Returns one text block' }, () =>
    text('This is a simple text response for testing.'),
  );
  server.registerTool('test_image_content', { description: 'Returns one image' }, () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Returns one audio clip' }, () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  }));
  const embedded = (uri: string, mimeType: string, body: string) => ({
    type: 'resource' as const,
    resource: { uri, mimeType, text: body },
  });
  server.registerTool('test_embedded_resource', { description: 'Returns a resource' }, () => ({
    content: [
      embedded('test://embedded-resource', 'text/plain', 'This is an embedded resource content.'),
    ],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Mixed content' }, () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      embedded('test://mixed-content-resource', 'application/json', '{"test":"data","value":123}'),
    ],
  }));
  server.registerTool('test_error_handling', { description: 'Always fails' }, () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  // Raw JSON Schema, kept as written: the suite checks that 2020-12 keywords survive tools/list.
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Takes a contact (JSON Schema 2020-12)',
      inputSchema: fromJsonSchema(contactSchema),
    },
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  );
  // A parameter mirrored into an `Mcp-Param-Region` header (SEP-2243), which must match the body.
  server.registerTool(
    'test_custom_header',
    {
      description: 'Takes a region sent as a header too',
      inputSchema: fromJsonSchema(regionSchema),
    },
    (args) => text(`region=${String((args as { region?: unknown }).region)}`),
  );
}

function registerInteractiveTools(server: McpServer): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Logs three lines' },
    async (context) => {
      for (const line of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ]) {
        await context.mcpReq.log('info', line);
        await pause();
      }
      return text('Tool with logging executed successfully');
    },
  );
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress' },
    async (context) => {
      const progressToken = context.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progressToken !== undefined)
          await context.mcpReq.notify({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              total: 100,
              message: `Completed step ${progress} of 100`,
            },
          });
        await pause();
      }
      return text(String(progressToken));
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the person', inputSchema: z.object({ message: z.string() }) },
    async ({ message }, context) => {
      const view = inputResponse(responsesOf(context), 'answer');
      if (view.kind === 'missing') {
        const requestedSchema = {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        };
        return inputRequired({
          inputRequests: {
            answer: inputRequired.elicit({ message, requestedSchema: requestedSchema as never }),
          },
        });
      }
      return text(answered('User response', view));
    },
  );
  formTool(
    server,
    'test_elicitation_sep1034_defaults',
    'Please review and update the form fields with defaults',
    defaultsSchema,
  );
  formTool(
    server,
    'test_elicitation_sep1330_enums',
    'Please select options from the enum fields',
    enumsSchema,
  );
  server.registerTool(
    'test_sampling',
    { description: 'Asks the model', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, context) => {
      const view = inputResponse(responsesOf(context), 'llm');
      if (view.kind === 'missing')
        return inputRequired({
          inputRequests: {
            llm: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
              maxTokens: 100,
            }),
          },
        });
      const content = view.kind === 'sampling' ? view.result.content : undefined;
      const reply = content !== undefined && 'text' in content ? content.text : 'No response';
      return text(`LLM response: ${String(reply)}`);
    },
  );
}

function registerResources(server: McpServer): void {
  const fixed = (
    name: string,
    uri: string,
    mimeType: string,
    body: { text: string } | { blob: string },
  ) =>
    server.registerResource(name, uri, { title: name, mimeType }, () => ({
      contents: [{ uri, mimeType, ...body }],
    }));
  fixed('static-text', 'test://static-text', 'text/plain', {
    text: 'This is the content of the static text resource.',
  });
  fixed('static-binary', 'test://static-binary', 'image/png', { blob: PNG });
  fixed('watched-resource', 'test://watched-resource', 'text/plain', { text: 'watched' });
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'Resource Template', mimeType: 'application/json' },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.toString(),
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
  // Subscriptions are acknowledged; the watched resource never changes during a scenario.
  server.server.setRequestHandler('resources/subscribe', () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
}

function registerPrompts(server: McpServer): void {
  const user = (content: Record<string, unknown>) => ({
    role: 'user' as const,
    content: content as never,
  });
  server.registerPrompt(
    'test_simple_prompt',
    { title: 'Simple Test Prompt', description: 'A prompt without arguments' },
    () => ({
      messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt With Arguments',
      description: 'A prompt with two required arguments',
      argsSchema: z.object({
        arg1: completable(z.string(), (value) =>
          ['paris', 'park', 'party'].filter((word) => word.startsWith(value)),
        ),
        arg2: z.string(),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [
        user({ type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` }),
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that embeds a resource',
      argsSchema: z.object({ resourceUri: z.string() }),
    },
    ({ resourceUri }) => ({
      messages: [
        user({
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        }),
        user({ type: 'text', text: 'Please process the embedded resource above.' }),
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { title: 'Prompt With Image', description: 'A prompt with an image' },
    () => ({
      messages: [
        user({ type: 'image', data: PNG, mimeType: 'image/png' }),
        user({ type: 'text', text: 'Please analyze the image above.' }),
      ],
    }),
  );
}

/** A fresh conformance "everything" server. */
export function createEverythingServer(): McpServer {
  const server = new McpServer(
    { name: 'waitfor-conformance-everything', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        prompts: {},
        resources: { subscribe: true },
        logging: {},
        completions: {},
      },
      requestState: { verify: (state, context) => stateCodec.verify(state, context) },
    },
  );
  registerContentTools(server);
  registerInteractiveTools(server);
  registerInputRequiredTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}

/** The everything server over Streamable HTTP on 127.0.0.1 (both eras at /mcp). */
export function startEverythingServer(): Promise<HttpEndpoint> {
  return serveMcpHttp(() => createEverythingServer());
}
