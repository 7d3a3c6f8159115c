import type { Request } from '../types';

/** The name of the server that asks, or undefined when the Request does not say (or says only blanks). */
export function requestServer(request: Request): string | undefined {
  const server = request.data?.origin?.server;
  return typeof server === 'string' && server.trim() !== '' ? server : undefined;
}
