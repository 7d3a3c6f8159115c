/**
 * A raw 2025-06-18 Streamable HTTP server (node:http) that pushes `elicitation/create` at the
 * earliest moment the wire allows: on the SSE stream answering the client's `initialize`, before the
 * initialize result itself. A client whose handler is registered only after `connect` started
 * answers that push "Method not found". Every JSON-RPC response the client POSTs back is recorded.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running eager push server. */
export interface EagerPushServer {
  url: string;
  /** The client's JSON-RPC responses to the pushes (result or error), in arrival order. */
  answers: Array<{ id: unknown; result?: unknown; error?: { code: number; message: string } }>;
  close(): Promise<void>;
}

const confirmSchema = {
  type: 'object',
  properties: { confirmed: { type: 'boolean', description: 'Confirm?' } },
  required: ['confirmed'],
};

/** Starts the eager push server on 127.0.0.1 with an ephemeral port. */
export async function startEagerPushServer(): Promise<EagerPushServer> {
  const answers: EagerPushServer['answers'] = [];
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      if (message['method'] === 'initialize') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const event = (body: unknown) =>
          response.write(`event: message\ndata: ${JSON.stringify(body)}\n\n`);
        event({
          jsonrpc: '2.0',
          id: 'eager-1',
          method: 'elicitation/create',
          params: { message: 'Confirm at once?', requestedSchema: confirmSchema },
        });
        event({
          jsonrpc: '2.0',
          id: message['id'],
          result: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            serverInfo: { name: 'eager-push', version: '1.0.0' },
          },
        });
        return void response.end();
      }
      if (message['method'] === undefined && message['id'] !== undefined)
        answers.push(message as EagerPushServer['answers'][number]);
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
