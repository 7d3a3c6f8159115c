/** Serves completionServerV2.ts over stdio (one process, one connection): `tsx completionServerV2Stdio.ts`. */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createCompletionServerV2 } from './completionServerV2';

serveStdio((context) => createCompletionServerV2(context.era));
