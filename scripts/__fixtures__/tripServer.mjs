// A modern-era MCP server for the README's terminal quick start, run with plain Node inside the
// scratch app (its packages come from the npm registry there, not from this workspace).
// `book_trip { city }` asks who travels (a form whose fields all have defaults), then books.
// Prints its URL once it listens, and `booked <city> <answer JSON>` once a booking went through.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const travellers = {
  type: 'object',
  properties: {
    travellers: { type: 'integer', title: 'Travellers', minimum: 1, maximum: 9, default: 2 },
    cabin: { type: 'string', title: 'Cabin', enum: ['economy', 'business'], default: 'economy' },
  },
  required: ['travellers'],
};

function createTripServer() {
  const server = new McpServer(
    { name: 'trips', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'book_trip',
    { description: 'Books a trip', inputSchema: z.object({ city: z.string() }) },
    async ({ city }, context) => {
      const responses = context.mcpReq.inputResponses;
      if (inputResponse(responses, 'who').kind === 'missing')
        return inputRequired({
          inputRequests: {
            who: inputRequired.elicit({
              message: `Who travels to ${city}?`,
              requestedSchema: travellers,
            }),
          },
        });
      const answer = acceptedContent(responses, 'who');
      if (answer === undefined) return { content: [{ type: 'text', text: 'not booked' }] };
      process.stdout.write(`booked ${city} ${JSON.stringify(answer)}\n`);
      return { content: [{ type: 'text', text: `booked ${city}` }] };
    },
  );
  return server;
}

const handler = toNodeHandler(createMcpHandler(createTripServer, { legacy: 'reject' }));
const http = createServer((request, response) => void handler(request, response));
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
