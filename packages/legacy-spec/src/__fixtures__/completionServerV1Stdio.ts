/** Serves completionServerV1.ts over stdio (one process, one connection): `tsx completionServerV1Stdio.ts`. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createCompletionServerV1 } from './completionServerV1';

await createCompletionServerV1().connect(new StdioServerTransport());
