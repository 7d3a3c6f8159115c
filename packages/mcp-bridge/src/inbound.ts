/**
 * The handlers the bridge registers on a client for server→client requests (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`). A question is scoped by the connection's era
 * (`handler.ts` of `eras/legacy` and `eras/modern`), then answered the same way in both: the person through waitFor (re-asked
 * on an invalid form), the host through its sampling and roots handlers.
 */
import { askPerson, checkParsed } from './askPerson';
import { BridgeError } from './bridgeError';
import type { BridgeState } from './bridgeState';
import { isRecord } from '@waitfor/runtime';
import type { InboundMethod } from './clientPort';
import type { ReceiverMethod } from './clientPort/port';
import type { Era } from './eras';
import type { PushedQuestion } from './questionLinks';
import { parseElicitationParams } from './mapping';
import type { TaskReceiver } from './tasks/receiver';

/** An error the SDKs send back as a JSON-RPC error with this code. */
function rpcRefusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Answer one pushed `elicitation/create` (either era) with the ElicitResult to send; closes the question. */
async function answerElicitation(
  bridge: BridgeState,
  question: PushedQuestion,
  params: Record<string, unknown>,
) {
  // The only call in flight may bring its own waitFor, modes, maxAttempts and limits (legacy era).
  // Every push pays for this path: fields are read one by one, no object is spread.
  const { own } = question;
  const { settings } = bridge;
  try {
    const parsed = parseElicitationParams(params);
    if (!(own?.modes ?? bridge.modes).includes(parsed.mode))
      throw rpcRefusal(-32602, `${parsed.mode} mode not declared`);
    // Checked (and bounded) before anyone is asked: past a limit, the push is refused -32602.
    return await askPerson(checkParsed(parsed, (own?.limits ?? settings.limits).form), {
      waitFor: own?.waitFor ?? settings.waitFor,
      origin: question.origin,
      signal: question.signal,
      maxAttempts: own?.maxAttempts ?? settings.maxAttempts,
      rewrite: question.rewrite,
      hooks: bridge.hooks,
    });
  } catch (error) {
    if (!BridgeError.isInstance(error)) throw error;
    if (error.code === 'invalid_params') throw rpcRefusal(-32602, error.message);
    // A pushed question must be answered: a waitFor that threw counts as the person dismissing
    // it, and a question whose call ended (or whose connection is going away) is answered
    // cancel — once; when the SDK itself aborted it (server cancelled, connection closed) the
    // SDK sends nothing.
    if (error.code === 'wait_failed' || error.code === 'aborted')
      return { action: 'cancel' as const };
    throw error;
  } finally {
    question.close();
  }
}

/** A host handler's answer to `question`, which is closed once it settled. */
async function answerByHost<T>(question: PushedQuestion, answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } finally {
    question.close();
  }
}

/** What a host's sampling or roots handler is told of the question. */
const hostContext = (question: PushedQuestion) => ({
  signal: question.signal,
  origin: question.origin,
});

/**
 * A task-augmented elicitation/create (2025-11-25) on a receiving bridge: answered at once with a
 * task; the question, kept apart from the calls in flight (the server decoupled it), is asked as
 * any other and ends with its task.
 */
function receiveElicitation(
  bridge: BridgeState,
  receiver: TaskReceiver,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const { task: _task, ...question } = params;
  return receiver.create(params, async (taskId, signal) => {
    const linked = bridge.links.openQuestion(signal, false);
    linked.origin = { server: bridge.host.serverName, era: 'legacy', taskId };
    return answerElicitation(bridge, linked, question);
  });
}

/** The receiver's handlers for the server's tasks/* requests. */
const receiverHandlers = (bridge: BridgeState, receiver: TaskReceiver) =>
  RECEIVER_METHODS.map((method) =>
    bridge.port.setRequestHandler(method, (params, context) =>
      receiver.handle(method, params, context.signal),
    ),
  );
const RECEIVER_METHODS: readonly ReceiverMethod[] = [
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
];

/**
 * Register the bridge's handlers on its port; `era` names the connection's era when a request
 * arrives (the client may connect after attach). Throws 'invalid_options' when the client refuses
 * a registration (connected without the capability).
 */
export function registerHandlers(bridge: BridgeState, era: () => Era): Promise<Array<() => void>> {
  const { sampling, roots } = bridge.settings;
  // Each method the host serves, answered under the question its era scopes it to, which each
  // answer closes once it settled (one async step per question, not a wrapper around another).
  const answers: Record<
    Exclude<InboundMethod, ReceiverMethod>,
    ((question: PushedQuestion, params: Record<string, unknown>) => Promise<unknown>) | undefined
  > = {
    'elicitation/create': (question, params) => answerElicitation(bridge, question, params),
    'sampling/createMessage':
      sampling &&
      ((question, params) => answerByHost(question, () => sampling(params, hostContext(question)))),
    'roots/list':
      roots && ((question) => answerByHost(question, () => roots(hostContext(question)))),
  };
  const { receiver } = bridge;
  try {
    return Promise.all([
      ...Object.entries(answers)
        .filter(([, answer]) => answer)
        .map(([method, answer]) =>
          bridge.port.setRequestHandler(method as InboundMethod, async (params, context) =>
            receiver !== undefined && method === 'elicitation/create' && isRecord(params['task'])
              ? receiveElicitation(bridge, receiver, params)
              : answer!(era().question(bridge, context, params), params),
          ),
        ),
      ...(receiver === undefined ? [] : receiverHandlers(bridge, receiver)),
    ]);
  } catch (error) {
    if (BridgeError.isInstance(error)) throw error;
    throw new BridgeError(
      'invalid_options',
      'Attach before connect, or declare elicitationCapabilities(options)',
      { cause: error },
    );
  }
}
