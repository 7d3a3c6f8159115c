import type { Request } from '@waitfor/core';
import { requestServer as serverOf } from '@waitfor/core/form';
import { defaultMessages } from './messages.js';

/**
 * The server's name as a label: core's `requestServer`, or `unknown` ("Unknown server") when the
 * Request does not say.
 */
export function serverLabel(
  request: Request,
  unknown: string = defaultMessages.unknownServer,
): string {
  return serverOf(request) ?? unknown;
}
