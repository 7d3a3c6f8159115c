/**
 * A jsdom window installed as Node's globals, as a browser page would have them. React DOM decides
 * at import time whether it runs in a browser, so this must run before react-dom is imported.
 */
import { JSDOM } from 'jsdom';

/** Install a jsdom window's globals (those Node does not already have); returns the window. */
export function installDomGlobals(): JSDOM['window'] {
  const dom = new JSDOM('<!doctype html><html><body><div id="root"></div></body></html>', {
    url: 'http://localhost/',
    pretendToBeVisual: true,
  });
  const { window } = dom;
  const target = globalThis as Record<string, unknown>;
  target['window'] = window;
  for (const name of Object.getOwnPropertyNames(window)) {
    if (name in globalThis) continue;
    try {
      target[name] = (window as unknown as Record<string, unknown>)[name];
    } catch {
      // A few window getters throw outside a browsing context; the benchmark needs none of them.
    }
  }
  return window;
}
