/**
 * Stdio entry of the dual-era fixture: `tsx dualEraServerStdio.ts [name]`. `serveStdio` pins the
 * era from the opening exchange (a `server/discover` probe → modern, `initialize` → legacy) and
 * serves the same factory as the HTTP starter.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createDualEraServer } from './dualEraServer';

const name = process.argv[2];
serveStdio(() => createDualEraServer(name === undefined ? {} : { name }));
