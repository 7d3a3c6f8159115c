import type { Request } from '@waitfor/core';

/** The name of the server that asks, or "Unknown server" when the Request does not say. */
export function requestServer(request: Request): string {
  const server = request.data?.origin?.server;
  return typeof server === 'string' && server.trim() !== '' ? server : 'Unknown server';
}
