/**
 * Under the "react-18" vitest project, `react` and `react-dom` are aliased to the npm aliases
 * react-18 / react-dom-18 for code Vite transforms. Packages Node loads itself (Testing Library's
 * CommonJS build, and react-dom-18, which pnpm links to the react@19 peer) bypass those aliases and
 * would mix two Reacts. The react-18 project runs this module first (setupFiles): it refuses to run
 * unless the aliased React is 18, then sends Node's own `require('react' | 'react-dom' …)` to the 18
 * copies as well.
 */
import { createRequire } from 'node:module';
import Module from 'node:module';
import { version } from 'react';

const resolveFrom = createRequire(import.meta.url);
const redirects: Array<[RegExp, string]> = [
  [/^react(\/.*)?$/, 'react-18'],
  [/^react-dom(\/.*)?$/, 'react-dom-18'],
];

type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };

// Only the react-18 project runs this: any other React here means its aliases are gone, and every
// test would pass against React 19 while claiming 18.
if (!version.startsWith('18.')) {
  throw new Error(`The react-18 project runs React ${version}: its react aliases are not applied.`);
}
const original = moduleWithResolve._resolveFilename;
moduleWithResolve._resolveFilename = function resolveToReact18(request, ...rest) {
  for (const [pattern, target] of redirects) {
    const match = pattern.exec(request);
    if (match) return resolveFrom.resolve(`${target}${match[1] ?? ''}`);
  }
  return original.call(this, request, ...rest);
};
