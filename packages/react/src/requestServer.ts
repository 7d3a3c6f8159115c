import type { Request } from '@waitfor/core';
import { defaultMessages } from './messages.js';

/** The name of the server that asks, or `unknown` ("Unknown server") when the Request does not say. */
export function requestServer(
  request: Request,
  unknown: string = defaultMessages.unknownServer,
): string {
  const server = request.data?.origin?.server;
  return typeof server === 'string' && server.trim() !== '' ? server : unknown;
}
