/**
 * The dual-era fixture over HTTP in a process of its own, so a test can kill it (-9) and start it
 * again on the same port: `tsx httpServerChild.ts <port>`. Prints the URL once it listens.
 */
import { startDualEraHttpServer } from './dualEraServer';

const port = Number(process.argv[2] ?? 0);
const server = await startDualEraHttpServer({ port });
process.stdout.write(`${server.url}\n`);
