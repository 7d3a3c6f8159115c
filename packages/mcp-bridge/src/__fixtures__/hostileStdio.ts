/**
 * Stdio entry of the hostile server (hostileServer.ts), both eras through the SDK's `serveStdio`.
 * `vanish` makes the process exit mid-round. Run with tsx: `tsx hostileStdio.ts`.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createHostileLog, createHostileServer } from './hostileServer';

const log = createHostileLog();
serveStdio((context) => createHostileServer(context.era, log, { onVanish: () => process.exit(0) }));
