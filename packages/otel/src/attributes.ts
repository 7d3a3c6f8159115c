/**
 * Attribute names and the values this package records. OpenTelemetry's names where the MCP and
 * GenAI semantic conventions define one, `waitfor.` otherwise.
 *
 * Invariants: nothing here reads an answer, a form's values or a prompt; a URI is kept as given
 * but for its query, fragment and userinfo (they carry tokens and personal data); every string a
 * server controls is cut to a bounded length.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Answer, Request } from '@waitfor/core';

/** `mcp.method.name`: tools/call, prompts/get or resources/read. */
export const METHOD = 'mcp.method.name';
/** `mcp.protocol.version`: the negotiated revision (2026-07-28 for modern-era calls). */
export const PROTOCOL_VERSION = 'mcp.protocol.version';
/** `mcp.resource.uri`: a resources/read call's URI, as given, without query and fragment. */
export const RESOURCE_URI = 'mcp.resource.uri';
/** `gen_ai.tool.name`: a tools/call call's tool. */
export const TOOL_NAME = 'gen_ai.tool.name';
/** `gen_ai.prompt.name`: a prompts/get call's prompt. */
export const PROMPT_NAME = 'gen_ai.prompt.name';
/** `gen_ai.operation.name`: `execute_tool` on tools/call. */
export const OPERATION_NAME = 'gen_ai.operation.name';
/** `error.type`: the JSON-RPC error code, `tool_error`, else the BridgeError code or error name. */
export const ERROR_TYPE = 'error.type';
/** `rpc.response.status_code`: the JSON-RPC error code of a response, as a string. */
export const STATUS_CODE = 'rpc.response.status_code';
/** `server.address`, `server.port`: the Streamable HTTP endpoint's host and port. */
export const SERVER_ADDRESS = 'server.address';
export const SERVER_PORT = 'server.port';
/** `network.transport`: `tcp` (Streamable HTTP) or `pipe` (stdio). */
export const TRANSPORT = 'network.transport';
/** `network.protocol.name`: `http` over Streamable HTTP. */
export const NETWORK_PROTOCOL = 'network.protocol.name';

/** Who asks: the server name the bridge shows the person. */
export const SERVER = 'waitfor.server.name';
/** The protocol era of the call or question: legacy or modern. */
export const ERA = 'waitfor.era';
/** Modern era: input_required rounds that asked someone (a suspension: its exact count). */
export const ROUNDS = 'waitfor.call.rounds';
/** How many questions this call asked (re-asks included). */
export const QUESTIONS = 'waitfor.call.questions';
/** complete or suspended (durable calls). */
export const CALL_STATUS = 'waitfor.call.status';
/** The Request's id (random, names no one). */
export const REQUEST_ID = 'waitfor.request.id';
/** The Request's kind: input, authorization, approval, question, … */
export const KIND = 'waitfor.request.kind';
/** form (it carries a schema) or url. */
export const MODE = 'waitfor.question.mode';
/** The inputRequests key of a modern-era question. */
export const INPUT_KEY = 'waitfor.input.key';
/** Which attempt this is: 1, then 2 for the first re-ask of an invalid form. */
export const ATTEMPT = 'waitfor.question.attempt';
/** accepted, declined, cancelled, expired, invalid (re-asked) or other. */
export const OUTCOME = 'waitfor.question.outcome';
/** A URL question's address, as given, without query, fragment and userinfo. */
export const QUESTION_URL = 'waitfor.question.url';

/** How a question ended, as recorded. */
export type Outcome = 'accepted' | 'declined' | 'cancelled' | 'expired' | 'invalid' | 'other';

/** A plain record (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The longest string recorded from what a server or host controls. */
const MAX_LENGTH = 256;

/** A bounded copy of an untrusted string (non-strings are not recorded). */
export const bounded = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.slice(0, MAX_LENGTH) : undefined;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * A URI as given, cut at its query and fragment, with any userinfo (`user:password@`) taken out;
 * undefined when it has no scheme. Not parsed: a parser rewrites what it reads (`file:///doc.txt`
 * would become `file:/doc.txt`, hosts and paths get normalised), and the conventions record the
 * URI itself.
 */
export function withoutQuery(value: unknown): string | undefined {
  // A bound before scanning: a server's megabyte URI costs nothing to refuse.
  if (typeof value !== 'string' || value.length > 8 * 1024 || !SCHEME.test(value)) return undefined;
  const uri = value.split(/[?#]/, 1)[0]!;
  const scheme = uri.indexOf(':') + 1;
  if (!uri.startsWith('//', scheme)) return bounded(uri);
  const path = uri.indexOf('/', scheme + 2);
  const authority = path === -1 ? uri.slice(scheme + 2) : uri.slice(scheme + 2, path);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return bounded(`${uri.slice(0, scheme)}//${host}${path === -1 ? '' : uri.slice(path)}`);
}

const known: readonly Outcome[] = ['declined', 'cancelled', 'expired'];

/** The outcome of one Answer (an accepted form may still turn out invalid: see the tracker). */
export function outcomeOf(answer: Answer | undefined): Outcome {
  if (answer === undefined) return 'cancelled';
  if (answer.ok === true) return 'accepted';
  const reason: unknown = answer.reason;
  return known.find((outcome) => outcome === reason) ?? 'other';
}

/** Origin fields recorded as they are, by attribute name. */
const originNames: ReadonlyArray<[string, string]> = [
  [SERVER, 'server'],
  [ERA, 'era'],
  [TOOL_NAME, 'tool'],
  [PROMPT_NAME, 'prompt'],
  [INPUT_KEY, 'inputKey'],
];

/**
 * The attributes of a question, read from its Request: origin, kind, mode, attempt — never its
 * content. Own keys only; origin values are the server's, so bounded.
 */
export function questionAttributes(request: Request): Attributes {
  const data = request.data;
  const origin = data?.origin;
  const own = (record: unknown, key: string): unknown =>
    isRecord(record) && Object.hasOwn(record, key) ? record[key] : undefined;
  const attempt = own(data, 'attempt');
  const attributes: Attributes = {
    [REQUEST_ID]: bounded(request.id),
    [KIND]: bounded(request.kind) ?? 'unknown',
    [ATTEMPT]: Number.isInteger(attempt) && (attempt as number) > 1 ? (attempt as number) : 1,
  };
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined) attributes[name] = value;
  };
  for (const [name, key] of originNames) put(name, bounded(own(origin, key)));
  put(RESOURCE_URI, withoutQuery(own(origin, 'resource')));
  put(QUESTION_URL, withoutQuery(request.url));
  put(
    MODE,
    typeof request.url === 'string'
      ? 'url'
      : own(data, 'schema') !== undefined
        ? 'form'
        : undefined,
  );
  return attributes;
}
