/**
 * The protocol facts the bridge branches on, named once: the two eras, their revisions, the methods
 * a bridge call issues and the SDK generations a client can be built with. Everything else imports
 * these names instead of spelling the unions out again.
 */

/** The protocol era of a connection: pushed `elicitation/create` (legacy) or `input_required` (modern). */
export type ProtocolEra = 'legacy' | 'modern';

/** The MCP SDK generation of a client: v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/client`. */
export type SdkGeneration = 'v1' | 'v2';

/** The three methods whose calls the bridge issues (and that may ask the person). */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** The list methods a bridge passes through (with `cursor` pagination). */
export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list';

/** The MCP protocol revision of the modern era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The last MCP protocol revision of the legacy era. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** The call methods, for checking untrusted data (a suspension read back from storage). */
export const CALL_METHODS: readonly string[] = ['tools/call', 'prompts/get', 'resources/read'];

/** The Tasks extension's identifier (SEP-2663), declared in the client's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
