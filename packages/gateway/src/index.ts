export { createGateway } from './gateway';
export type { Gateway, GatewayOptions, Upstream } from './gateway';
export type { Clock } from './holds';
export { serveHttp } from './http';
export type { HttpEndpoint, ServeHttpOptions } from './http';
export { createPage, defaultDataDir, lazyPage } from './page';
export type { LazyPage, Page, PageOptions, PagePolicy } from './page';
export type { CannotAsk } from './hostSide';
