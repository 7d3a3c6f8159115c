/**
 * The `input-required-result-*` scenarios' tools (SEP-2322) for the everything fixture: one round
 * (a form, a sampling, roots), several questions in one round, a signed `requestState`
 * round-tripped, a refused tampered one, and three rounds with an evolving state. States are minted and verified by the SDK's own HMAC
 * codec: the server's `requestState.verify` hook refuses a forged one (-32602) before any handler.
 */
import {
  acceptedContent,
  inputRequired,
  inputResponse,
  createRequestStateCodec,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';

interface State {
  tool: string;
  step: number;
}

/** The states' codec (a fixed test key): pass `verify` as the server's `requestState.verify`. */
export const stateCodec = createRequestStateCodec<State>({
  key: 'waitfor-conformance-everything-state-key-0123456789',
});

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const responsesOf = (context: ServerContext) => context.mcpReq.inputResponses ?? {};

/** An elicitation of one required field. */
const ask = (message: string, field: string, type: 'string' | 'boolean') =>
  inputRequired.elicit({
    message,
    requestedSchema: {
      type: 'object',
      properties: { [field]: { type } },
      required: [field],
    } as never,
  });

/** The step `tool`'s verified state names (0 before the first round, or another tool's state). */
function stepOf(context: ServerContext, tool: string): number {
  const state = context.mcpReq.requestState<State>();
  return state !== undefined && state.tool === tool ? state.step : 0;
}

const mint = (tool: string, step: number) => stateCodec.mint({ tool, step });

/** Register the scenarios' tools on `server`. */
export function registerInputRequiredTools(server: McpServer): void {
  const prefix = 'test_input_required_result_';
  server.registerTool(`${prefix}elicitation`, { description: 'Asks a name' }, (context) => {
    const name = acceptedContent<{ name: string }>(responsesOf(context), 'user_name');
    if (name === undefined)
      return inputRequired({
        inputRequests: { user_name: ask('What is your name?', 'name', 'string') },
      });
    return text(`Hello, ${name.name}!`);
  });

  server.registerTool(`${prefix}sampling`, { description: 'Asks the model' }, (context) => {
    const view = inputResponse(responsesOf(context), 'capital_question');
    if (view.kind === 'missing')
      return inputRequired({
        inputRequests: {
          capital_question: inputRequired.createMessage({
            messages: [
              { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
            ],
            maxTokens: 100,
          }),
        },
      });
    const content = view.kind === 'sampling' ? view.result.content : undefined;
    return text(
      `The model said: ${content !== undefined && 'text' in content ? String(content.text) : view.kind}`,
    );
  });

  server.registerTool(`${prefix}list_roots`, { description: 'Asks for roots' }, (context) => {
    const view = inputResponse(responsesOf(context), 'client_roots');
    if (view.kind === 'missing')
      return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    const roots = view.kind === 'roots' ? view.roots.map((root) => root.uri).join(', ') : view.kind;
    return text(`Your roots: ${roots}`);
  });

  for (const tool of ['request_state', 'tampered_state']) {
    server.registerTool(
      `${prefix}${tool}`,
      { description: 'Asks with a signed state' },
      async (context) => {
        const answered = inputResponse(responsesOf(context), 'confirm').kind !== 'missing';
        if (stepOf(context, tool) === 0 || !answered)
          return inputRequired({
            inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
            requestState: await mint(tool, 1),
          });
        return text('state-ok: confirmed');
      },
    );
  }

  server.registerTool(
    `${prefix}multiple_inputs`,
    { description: 'Asks three things at once' },
    async (context) => {
      const responses = responsesOf(context);
      const keys = ['user_name', 'greeting', 'client_roots'];
      const missing = keys.some((key) => inputResponse(responses, key).kind === 'missing');
      if (stepOf(context, 'multiple_inputs') === 0 || missing)
        return inputRequired({
          inputRequests: {
            user_name: ask('What is your name?', 'name', 'string'),
            greeting: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
              maxTokens: 50,
            }),
            client_roots: inputRequired.listRoots(),
          },
          requestState: await mint('multiple_inputs', 1),
        });
      return text(
        `all answered: ${keys.map((key) => inputResponse(responses, key).kind).join(', ')}`,
      );
    },
  );

  server.registerTool(
    `${prefix}multi_round`,
    { description: 'Asks in three rounds' },
    async (context) => {
      const responses = responsesOf(context);
      const step = stepOf(context, 'multi_round');
      if (step === 0 || (step === 1 && acceptedContent(responses, 'step1') === undefined))
        return inputRequired({
          inputRequests: { step1: ask('Step 1: What is your name?', 'name', 'string') },
          requestState: await mint('multi_round', 1),
        });
      if (step === 1 || acceptedContent(responses, 'step2') === undefined)
        return inputRequired({
          inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color', 'string') },
          requestState: await mint('multi_round', 2),
        });
      return text('three rounds done');
    },
  );
}
