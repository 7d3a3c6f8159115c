/**
 * Resume a suspended call in a separate process with telemetry: reads `{ url, suspension, answers }`
 * as JSON on stdin, resumes through a bridge on a fresh v2 client (modern era) with its own in-memory SDK, and prints
 * the outcome's status and every finished span (ids, parent, links) as JSON on stdout.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { attachWaitFor } from '@waitfor/mcp-bridge';
import { createTelemetry } from '../index';
import { createTestSdk } from './sdk';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const { url, suspension, answers } = JSON.parse(input) as {
  url: string;
  suspension: never;
  answers: never;
};
const sdk = createTestSdk();
const telemetry = createTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
const client = new Client(
  { name: 'resume-child', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {}, url: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
// A durable resume asks no one in this process: the person's waitFor is never called.
const bridge = attachWaitFor(client, {
  waitFor: () => Promise.reject(new Error('a durable resume must not ask in-process')),
});
await bridge.ready;
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
try {
  const outcome = await bridge.resume(suspension, answers, { extensions: [telemetry] });
  const spans = sdk.spans().map((span) => ({
    name: span.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    links: span.links.map((link) => link.context),
    attributes: span.attributes,
  }));
  process.stdout.write(JSON.stringify({ ok: true, status: outcome.status, spans }));
} catch (error) {
  process.stdout.write(JSON.stringify({ ok: false, message: String(error) }));
} finally {
  await client.close();
  await sdk.shutdown();
}
