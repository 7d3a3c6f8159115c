/**
 * Node-only entry: connect to stdio servers (`{ command, args, env }`) as well as HTTP ones.
 * Kept off the main entry so it stays browser-safe.
 */
import { BridgeError } from './bridgeError';
import {
  connect as connectHttp,
  connectWith,
  type ConnectOptions,
  type Connection,
} from './connection';

/** A stdio server to spawn. */
export interface StdioTarget {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** Connect to an MCP server over stdio (`{ command }`) or Streamable HTTP (`{ url }`). */
export async function connect(
  target: StdioTarget | { url: string | { href: string } },
  options: ConnectOptions,
): Promise<Connection> {
  if (typeof target === 'object' && target !== null && 'url' in target)
    return connectHttp(target, options);
  if (
    typeof target !== 'object' ||
    target === null ||
    typeof (target as StdioTarget).command !== 'string'
  ) {
    throw new BridgeError('invalid_options', 'connect needs { url } or { command, args?, env? }');
  }
  const stdio = target as StdioTarget;
  return connectWith(
    {
      create: async () => {
        const { StdioClientTransport } =
          (await import('@modelcontextprotocol/client/stdio')) as unknown as {
            StdioClientTransport: new (parameters: Record<string, unknown>) => unknown;
          };
        const parameters: Record<string, unknown> = {
          command: stdio.command,
          args: stdio.args ?? [],
        };
        if (stdio.env !== undefined) parameters['env'] = stdio.env;
        if (stdio.cwd !== undefined) parameters['cwd'] = stdio.cwd;
        return new StdioClientTransport(parameters);
      },
    },
    // A task reference names the server by its command line unless the host names it otherwise.
    { ...options, serverId: options.serverId || [stdio.command, ...(stdio.args ?? [])].join(' ') },
  );
}

export type { ConnectOptions, Connection, EraChoice } from './connection';
