/**
 * A bridge to the dual-era fixture, held the two ways a host holds one: `connect(...)` (a
 * `Connection`) or `attachWaitFor(client, ...)` on a client it made (the `Bridge`), for v2 clients
 * of both eras and the v1 client (legacy era).
 */
import type { AttachOptions, Bridge } from '@waitfor/mcp-bridge';
import { connect } from '@waitfor/mcp-bridge';
import { openClient, type ClientKind } from '../../../mcp-bridge/src/__fixtures__/clients';
import type { McpToolSource } from '../index';

export type SourcePath = 'connect' | 'attachWaitFor';

/** [path, client kind, era] for describe.each. */
export const sourcePaths: ReadonlyArray<[SourcePath, ClientKind, 'legacy' | 'modern']> = [
  ['connect', 'v2-modern', 'modern'],
  ['connect', 'v2-legacy', 'legacy'],
  ['attachWaitFor', 'v2-modern', 'modern'],
  ['attachWaitFor', 'v1', 'legacy'],
];

/** An open bridge to `url` and how to close it. */
export interface OpenSource {
  source: McpToolSource;
  /** The Requests handed to waitFor and not settled yet. */
  openRequests: Bridge['openRequests'];
  close(): Promise<void>;
}

export async function openSource(
  path: SourcePath,
  kind: ClientKind,
  url: string,
  options: AttachOptions,
): Promise<OpenSource> {
  if (path === 'connect') {
    const era = kind === 'v2-modern' ? 'modern' : 'legacy';
    const connection = await connect({ url }, { ...options, era });
    return {
      source: connection,
      openRequests: () => connection.attachment.openRequests(),
      close: () => connection.close(),
    };
  }
  const { attachment, close } = await openClient(kind, 'http', { url }, options);
  // attachWaitFor returns the Bridge; the harness types it as its Attachment.
  const bridge = attachment as Bridge;
  return { source: bridge, openRequests: () => bridge.openRequests(), close };
}
