/**
 * Every error class of every package is recognised by `isInstance` across two installed copies of
 * its package (an app may end up with two versions side by side): `instanceof` cannot do that, the
 * shared `Symbol.for` brand of @waitfor/runtime must. A second copy is a second module instance of
 * the same sources, runtime included.
 */
import { describe, expect, it, vi } from 'vitest';

interface ErrorClass {
  isInstance(value: unknown): boolean;
}

/** Every class takes (code, message) first. */
const make = (Class: ErrorClass) =>
  new (Class as unknown as new (code: string, message: string) => Error)('x', 'y');

/** Each class with its brand key (fixed: older copies already carry it). */
const classes: Array<[string, string, () => Promise<ErrorClass>]> = [
  [
    'WaitforError',
    'waitfor.error',
    async () => (await import('../packages/core/src/waitforError')).WaitforError,
  ],
  [
    'BridgeError',
    'waitfor.mcp-bridge.error',
    async () => (await import('../packages/mcp-bridge/src/bridgeError')).BridgeError,
  ],
  [
    'LegacySpecError',
    'waitfor.legacy-spec.error',
    async () => (await import('../packages/legacy-spec/src/legacySpecError')).LegacySpecError,
  ],
  [
    'WaitforReactError',
    'waitfor.react.error',
    async () => (await import('../packages/react/src/waitforReactError')).WaitforReactError,
  ],
  [
    'HttpInboxError',
    'waitfor.http.error',
    async () => (await import('../packages/http/src/httpError')).HttpInboxError,
  ],
  [
    'AiSdkError',
    'waitfor.ai-sdk.error',
    async () => (await import('../packages/ai-sdk/src/aiSdkError')).AiSdkError,
  ],
  [
    'LangGraphError',
    'waitfor.langgraph.error',
    async () => (await import('../packages/langgraph/src/langGraphError')).LangGraphError,
  ],
];

describe.each(classes)('%s', (_name, key, load) => {
  it('recognises an error made by another installed copy of its package', async () => {
    const First = await load();
    vi.resetModules();
    const Second = await load();
    // Two real copies: instanceof fails between them, the brand does not.
    expect(First).not.toBe(Second);
    expect(make(First) instanceof Second).toBe(false);
    expect(Second.isInstance(make(First))).toBe(true);
    expect(First.isInstance(make(Second))).toBe(true);
  });

  it(`recognises any object carrying Symbol.for('${key}'), and nothing else`, async () => {
    const Class = await load();
    expect(Class.isInstance({ [Symbol.for(key)]: true })).toBe(true);
    expect(Class.isInstance(Object.assign(new Error('z'), { [Symbol.for(key)]: true }))).toBe(true);
    for (const value of [new Error('plain'), { [Symbol.for(key)]: 1 }, null, undefined, 'x'])
      expect(Class.isInstance(value)).toBe(false);
  });

  it('does not take the errors of the other packages for its own', async () => {
    const Class = await load();
    for (const [, otherKey] of classes.filter(([, candidate]) => candidate !== key))
      expect(Class.isInstance({ [Symbol.for(otherKey)]: true })).toBe(false);
  });
});
