/** Raw HTTP for the endpoint's tests: requests a client library would not send, exactly as given. */
import { request as httpRequest } from 'node:http';

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to `url` with exactly these headers (Host included, unlike fetch). */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Raw> {
  const target = new URL(url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** The JSON-RPC message of a response body: plain JSON, or the last `data:` line of an SSE stream. */
export function messageOf(body: string): {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
} {
  if (body.startsWith('{')) return JSON.parse(body) as never;
  const data = body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .pop();
  return JSON.parse(data ?? '{}') as never;
}
