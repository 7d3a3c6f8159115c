// The example host in its hosted mode, in a process of its own so a test can kill it (-9):
// argv: <dataDir> <distDir> <port>. Prints one line of JSON, { url }, once it listens.
import { startExample } from '../src/host/startExample.js';

const [dataDir, distDir, port] = process.argv.slice(2);
if (dataDir === undefined || distDir === undefined)
  throw new Error('hostedChild <dataDir> <distDir> [port]');
const example = await startExample({ port: Number(port ?? 0), distDir, hosted: { dataDir } });
process.stdout.write(`${JSON.stringify({ url: example.url })}\n`);
process.once('SIGTERM', () => void example.close().then(() => process.exit(0)));
