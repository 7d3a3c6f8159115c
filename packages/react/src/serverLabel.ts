import type { Request } from '@waitfor/core';
import { requestServer as serverOf } from '@waitfor/core/form';
import { defaultMessages } from './messages.js';

/** The name of the server that asks, or `unknown` ("Unknown server") when the Request does not say. */
export function requestServer(
  request: Request,
  unknown: string = defaultMessages.unknownServer,
): string {
  return serverOf(request) ?? unknown;
}
