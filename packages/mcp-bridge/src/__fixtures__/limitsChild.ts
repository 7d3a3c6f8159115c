/**
 * One hostile question in a process of its own, so a crash (heap out of memory) or a blocked event
 * loop fails the parent test rather than only a thrown error. Reads `{ url, era, tool, size,
 * limits?, answer, path? }` as JSON on stdin, connects the bridge to the hostile server (through
 * `connect`, or with `path: "attachWaitFor"` a v2 client the child made and attached itself),
 * calls `tool {size}` and prints one JSON line — `{ asked, code?, message?, text? }` — then exits 0.
 * The person counts every question (`asked`) and answers `accept(request)` (take the defaults) or,
 * with `answer: "every-field"`, a value for every field of the form.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { accept, type Request, type WaitFor } from '@waitfor/core';
import { attachWaitFor, connect, type BridgeLimits } from '../index';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const job = JSON.parse(input) as {
  url: string;
  era: 'legacy' | 'modern';
  tool: string;
  size: number;
  limits?: Partial<BridgeLimits>;
  answer?: 'defaults' | 'every-field';
  path?: 'attachWaitFor' | 'connect';
};

let asked = 0;
const waitFor = async (request: Request) => {
  asked += 1;
  if (job.answer !== 'every-field') return accept(request);
  const properties = (request.data?.schema as { properties: object }).properties;
  return accept(request, Object.fromEntries(Object.keys(properties).map((key) => [key, 'x'])));
};

const report: Record<string, unknown> = {};

/** The client, its call function and its close, by the path the job names. */
async function open(options: { waitFor: WaitFor; limits?: Partial<BridgeLimits> }) {
  if (job.path !== 'attachWaitFor') {
    return connect({ url: job.url }, { ...options, era: job.era });
  }
  const client = new Client(
    { name: 'limits-child', version: '1.0.0' },
    // No capabilities: attachWaitFor declares them before connecting.
    { versionNegotiation: { mode: job.era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  const attachment = attachWaitFor(client, options);
  await attachment.ready;
  await client.connect(new StreamableHTTPClientTransport(new URL(job.url)));
  return { callTool: attachment.callTool.bind(attachment), close: () => client.close() };
}

const connection = await open({ waitFor, ...(job.limits && { limits: job.limits }) });
try {
  const result = (await connection.callTool(
    { name: job.tool, arguments: { size: job.size } },
    { timeout: 600_000 },
  )) as { content?: Array<{ text?: string }> };
  report.text = result.content?.[0]?.text?.slice(0, 200);
} catch (error) {
  report.code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { cause?: unknown } }).cause;
  report.message = `${String((error as Error).message)} ${String(cause?.cause ?? '')}`.slice(
    0,
    500,
  );
} finally {
  await connection.close();
}
process.stdout.write(`${JSON.stringify({ asked, ...report })}\n`);
process.exit(0);
