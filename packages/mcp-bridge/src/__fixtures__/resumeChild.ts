/**
 * Resume a suspended call in a separate process: reads `{ url, suspension, answers }` as JSON on
 * stdin, connects a fresh v2 client (modern era) with a bridge attached whose person is never asked
 * (a durable resume asks no one) and prints the DurableOutcome as JSON on stdout.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { attachWaitFor } from '../index';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const { url, suspension, answers } = JSON.parse(input) as {
  url: string;
  suspension: never;
  answers: never;
};
const client = new Client(
  { name: 'resume-child', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {}, url: {} } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
const bridge = attachWaitFor(client, {
  waitFor: () => Promise.reject(new Error('a durable resume must not ask in-process')),
});
await bridge.ready;
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
try {
  process.stdout.write(
    JSON.stringify({ ok: true, outcome: await bridge.resume(suspension, answers) }),
  );
} catch (error) {
  process.stdout.write(
    JSON.stringify({ ok: false, code: (error as { code?: unknown }).code, message: String(error) }),
  );
} finally {
  await client.close();
}
