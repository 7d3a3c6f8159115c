/**
 * SEP-2243 at the gateway's 2026-07-28 HTTP endpoint: a tools/call whose `Mcp-Param-*` headers do
 * not match its arguments (or carry a malformed Base64 value) is refused before it reaches the
 * upstream, by the SDK's own check (HTTP 400, -32020 HeaderMismatch, after its standard-header
 * checks). The SDK runs that check only for an `McpServer` that knows the tool's inputSchema; the
 * gateway's host-facing server is a low-level `Server` passing calls through, so a modern
 * tools/call is served through a stand-in `McpServer` around it whose schemas are the upstream's.
 *
 * Invariants:
 * - the schemas checked against are never older than the tool list a host last got here: the
 *   upstream's list is fetched at the first modern tools/call and again at the first one after any
 *   host listed tools through this endpoint (a host that heard list_changed lists again, and the
 *   SDK client does after a -32020); one fetch at a time serves every call waiting for it;
 * - a list that cannot be fetched: the last one fetched stands in; with none the call is refused
 *   (HTTP 500) rather than passed unchecked;
 * - bounded, since a server is untrusted: at most `maxPages` pages and `maxTools` tools read; a
 *   schema is kept only when it declares an `x-mcp-header` within `maxNodes` values nested at most
 *   `maxDepth` deep (one linear walk over own keys); a tool past those bounds is not checked.
 */
import { McpServer, type Server } from '@modelcontextprotocol/server';
import { isRecord } from '@waitfor/runtime';

/** One page of the upstream's tools/list (`cursor`: the previous page's `nextCursor`). */
export type ToolLister = (cursor: string | undefined) => Promise<Record<string, unknown>>;

/** Bounds on what is read of the upstream's tool list. */
export interface ToolSchemaLimits {
  maxPages: number;
  maxTools: number;
  maxNodes: number;
  maxDepth: number;
}

/** The bounds used unless others are given (the SDK client reads at most 64 pages too). */
export const defaultToolSchemaLimits: Readonly<ToolSchemaLimits> = Object.freeze({
  maxPages: 64,
  maxTools: 10_000,
  maxNodes: 10_000,
  maxDepth: 64,
});

type Schemas = ReadonlyMap<string, Record<string, unknown>>;

const designation = 'x-mcp-header';

/** Whether `schema` declares an `x-mcp-header` anywhere, within the bounds (past them: false). */
export function declaresHeaders(
  schema: Record<string, unknown>,
  limits: ToolSchemaLimits,
): boolean {
  const stack: Array<[unknown, number]> = [[schema, 0]];
  let values = 1;
  let found = false;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limits.maxDepth) return false;
    if (!Array.isArray(node) && Object.hasOwn(node, designation)) found = true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    values += children.length;
    if (values > limits.maxNodes) return false;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return found;
}

/** The upstream's tools that declare headers, by name, read within `limits`. */
async function readSchemas(list: ToolLister, limits: ToolSchemaLimits): Promise<Schemas> {
  const schemas = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  let tools = 0;
  for (let page = 0; page < limits.maxPages; page += 1) {
    const result = await list(cursor);
    for (const tool of Array.isArray(result['tools']) ? (result['tools'] as unknown[]) : []) {
      if ((tools += 1) > limits.maxTools) return schemas;
      if (!isRecord(tool) || typeof tool['name'] !== 'string') continue;
      const schema = tool['inputSchema'];
      if (isRecord(schema) && declaresHeaders(schema, limits)) schemas.set(tool['name'], schema);
    }
    const next = result['nextCursor'];
    if (typeof next !== 'string' || next === cursor) return schemas;
    cursor = next;
  }
  return schemas;
}

/**
 * `server` as an McpServer whose tools' inputSchemas are `schemaOf`'s, so the SDK's HTTP entry
 * checks a call's Mcp-Param-* headers against them (it asks `toolInputSchemaJson`). Everything
 * else is McpServer's own, read through the prototype: connect and close go to `server`.
 */
function standIn(server: Server, schemaOf: (name: string) => object | undefined): McpServer {
  return Object.create(McpServer.prototype, {
    server: { value: server },
    toolInputSchemaJson: { value: schemaOf },
    // The gateway registers no tool of its own, so none carries a scope challenge.
    resolveScopeChallenge: { value: () => undefined },
  }) as McpServer;
}

/** The upstream's tool schemas, as the gateway's endpoint checks a 2026-07-28 tools/call against them. */
export class ToolSchemas {
  /** Bumped by every host tools/list: a call needs schemas fetched at this generation or later. */
  private generation = 0;
  private known: { generation: number; schemas: Schemas } | undefined;
  private fetching: { generation: number; done: Promise<Schemas> } | undefined;

  constructor(
    private readonly list: ToolLister,
    private readonly limits: ToolSchemaLimits = defaultToolSchemaLimits,
  ) {}

  /** A host listed tools: the next call is checked against a list fetched from now on. */
  invalidate(): void {
    this.generation += 1;
  }

  /** The schemas by tool name, fetched no earlier than the last `invalidate`. */
  current(): Promise<Schemas> {
    const wanted = this.generation;
    if (this.known !== undefined && this.known.generation >= wanted)
      return Promise.resolve(this.known.schemas);
    if (this.fetching === undefined || this.fetching.generation < wanted) {
      const fetching = { generation: wanted, done: this.fetch(wanted) };
      this.fetching = fetching;
      const settled = () => {
        if (this.fetching === fetching) this.fetching = undefined;
      };
      fetching.done.then(settled, settled);
    }
    return this.fetching.done;
  }

  private async fetch(generation: number): Promise<Schemas> {
    try {
      const schemas = await readSchemas(this.list, this.limits);
      if (this.known === undefined || this.known.generation < generation)
        this.known = { generation, schemas };
      return schemas;
    } catch (error) {
      // Not marked fresh: the next call tries again.
      if (this.known !== undefined) return this.known.schemas;
      throw error;
    }
  }

  /**
   * What serves one modern-era request: for a tools/call (its `Mcp-Method` header, which the SDK
   * has checked against the body before it asks for a server) a stand-in McpServer checking the
   * call's Mcp-Param-* headers; anything else `server` itself.
   */
  async serve(server: McpServer | Server, request: Request | undefined) {
    if (server instanceof McpServer || request?.headers.get('mcp-method') !== 'tools/call')
      return server;
    const schemas = await this.current();
    return standIn(server, (name) => schemas.get(name));
  }
}
