/** The 2025-era fixture (legacyServer.ts) over stdio: `tsx legacyServerStdio.ts`. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createLegacyServer } from './legacyServer';

await createLegacyServer().connect(new StdioServerTransport());
