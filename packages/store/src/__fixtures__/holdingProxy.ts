import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An HTTP proxy in front of an MCP server that can swallow the answers to some requests. */
export interface HoldingProxy {
  readonly url: string;
  /** How many requests were forwarded to the server and their answers kept from the client. */
  readonly held: number;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` as it is, and the server's answer back — except for a POST
 * whose body `hold` matches: that one reaches the server, but its answer never reaches the client
 * (as when the host that sent it dies before reading it).
 */
export async function startHoldingProxy(
  target: string,
  hold: (body: string) => boolean,
): Promise<HoldingProxy> {
  const upstream = new URL(target);
  let held = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const keep = incoming.method === 'POST' && hold(body.toString('utf8'));
      if (keep) held++;
      const sent = forward(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          if (keep) return void answer.resume();
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      sent.on('error', () => outgoing.destroy());
      sent.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    get held() {
      return held;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
