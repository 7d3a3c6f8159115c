import type { Request, RequestOrigin } from './types';

/** Who asks: the Request's `data.origin` (parseRequest has checked that it names a server). */
export const requestOrigin = (request: Request): RequestOrigin | undefined => request.data?.origin;
