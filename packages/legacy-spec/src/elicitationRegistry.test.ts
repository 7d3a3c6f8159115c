import { accept, cancel, decline, type Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { createElicitationRegistry, type CallRecord } from './elicitationRegistry';
import { createLegacySpec } from './legacySpec';
import { LegacySpecError } from './legacySpecError';

const urlRequest = (id: string, elicitationId: string): Request => ({
  id,
  kind: 'authorization',
  prompt: 'Sign in',
  url: 'https://example.com/sign-in',
  data: { elicitationId },
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return LegacySpecError.isInstance(error)
      ? error.code
      : `not a LegacySpecError: ${String(error)}`;
  }
  return 'resolved';
};

describe('elicitation registry', () => {
  it('moves open → consented → completed and resolves waiters, by elicitationId or Request id', async () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    registry.add(scope, [urlRequest('elc-1', 'e-1')], []);
    expect(registry.find('e-1')?.state).toBe('open');
    registry.answered([accept('elc-1')]);
    expect(registry.find('elc-1')?.state).toBe('consented');
    const byElicitationId = registry.wait('e-1');
    const byRequestId = registry.wait('elc-1');
    const completed = registry.complete(scope, 'e-1');
    expect(completed).toMatchObject({ wasOpen: false, elicitationId: 'e-1', server: 'one' });
    expect(registry.find('e-1')?.state).toBe('completed');
    await expect(byElicitationId).resolves.toMatchObject({
      elicitationId: 'e-1',
      state: 'completed',
    });
    await expect(byRequestId).resolves.toMatchObject({ request: { id: 'elc-1' } });
    // A waiter that comes after completion resolves at once.
    await expect(registry.wait('e-1')).resolves.toMatchObject({ state: 'completed' });
  });

  it('ignores unknown and repeated completions, and completions from another connection, without a new snapshot', () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    const other = { serverName: 'one' };
    registry.add(scope, [urlRequest('elc-1', 'e-1')], []);
    registry.answered([accept('elc-1')]);
    expect(registry.complete(other, 'e-1')).toBeUndefined();
    expect(registry.complete(scope, 'unknown')).toBeUndefined();
    expect(registry.complete(scope, 'e-1')).toBeDefined();
    const snapshot = registry.getSnapshot();
    let changes = 0;
    registry.subscribe(() => (changes += 1));
    expect(registry.complete(scope, 'e-1')).toBeUndefined();
    expect(registry.complete(scope, 'unknown')).toBeUndefined();
    expect(registry.getSnapshot()).toBe(snapshot);
    expect(changes).toBe(0);
  });

  it('marks a completion that arrives before any Answer as wasOpen, and a later Answer keeps it completed', () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    registry.add(scope, [urlRequest('elc-1', 'e-1')], []);
    expect(registry.complete(scope, 'e-1')?.wasOpen).toBe(true);
    registry.answered([cancel('elc-1')]);
    expect(registry.find('e-1')?.state).toBe('completed');
  });

  it('rejects waiters when the elicitation is declined, the time runs out, the signal aborts, or the id is unknown', async () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    registry.add(scope, [urlRequest('elc-1', 'e-1')], []);
    registry.add(scope, [urlRequest('elc-2', 'e-2')], []);
    registry.add(scope, [urlRequest('elc-3', 'e-3')], []);
    const declined = registry.wait('e-1');
    registry.answered([decline('elc-1')]);
    expect(await codeOf(declined)).toBe('elicitation_closed');
    expect(await codeOf(registry.wait('e-2', { timeoutMs: 5 }))).toBe('completion_timeout');
    const controller = new AbortController();
    const aborted = registry.wait('e-3', { signal: controller.signal, timeoutMs: Infinity });
    controller.abort(new Error('host gave up'));
    expect(await codeOf(aborted)).toBe('aborted');
    expect(await codeOf(registry.wait('nope'))).toBe('unknown_elicitation');
    // The connection going away closes what is still live.
    registry.answered([accept('elc-3')]);
    const live = registry.wait('e-3', { timeoutMs: Infinity });
    registry.closeScope(scope);
    expect(await codeOf(live)).toBe('elicitation_closed');
    // Still listed, as closed, and a wait after the close ends at once; no completion matches now.
    expect(registry.getSnapshot().map((entry) => entry.state)).toEqual([
      'closed',
      'closed',
      'closed',
    ]);
    expect(await codeOf(registry.wait('e-3', { timeoutMs: Infinity }))).toBe('elicitation_closed');
    expect(registry.complete(scope, 'e-3')).toBeUndefined();
  });

  it('keeps settling waiters and other listeners when a snapshot listener throws', async () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    const seen: string[] = [];
    registry.subscribe(() => {
      throw new Error('broken UI listener');
    });
    registry.subscribe(() =>
      seen.push(
        registry
          .getSnapshot()
          .map((item) => item.state)
          .join(),
      ),
    );
    registry.add(scope, [urlRequest('elc-1', 'e-1')], []);
    const waiting = registry.wait('e-1');
    expect(registry.complete(scope, 'e-1')?.wasOpen).toBe(true);
    await expect(waiting).resolves.toMatchObject({ state: 'completed' });
    expect(seen).toEqual(['open', 'completed']);
  });
});

describe('elicitation registry: calls, reasons and own keys', () => {
  it('closes a consented entry with call_ended at once when every call that asked failed', () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    const first: CallRecord = [];
    const second: CallRecord = [];
    registry.add(scope, [urlRequest('elc-1', 'e-1')], [first, second]);
    registry.answered([accept('elc-1')]);
    registry.ended(first, false);
    // Another call in flight may still be the one that asked.
    expect(registry.find('e-1')?.state).toBe('consented');
    registry.ended(second, false);
    expect(registry.getSnapshot()).toEqual([
      expect.objectContaining({ state: 'closed', reason: 'call_ended' }),
    ]);
  });

  it('keeps a consented entry whose call ended normally for completionTimeoutMs, then closes it', async () => {
    const registry = createElicitationRegistry(20);
    const scope = { serverName: 'one' };
    const call: CallRecord = [];
    registry.add(scope, [urlRequest('elc-1', 'e-1'), urlRequest('elc-2', 'e-2')], [call]);
    registry.answered([accept('elc-1'), accept('elc-2')]);
    registry.ended(call, true);
    expect(registry.complete(scope, 'e-2')?.wasOpen).toBe(false);
    await expect
      .poll(() => registry.find('e-1'))
      .toMatchObject({ state: 'closed', reason: 'call_ended' });
    expect(registry.find('e-2')?.state).toBe('completed');
  });

  it('closes a consent given after its call failed at once, and names declined, cancelled and replaced', () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    const call: CallRecord = [];
    registry.add(
      scope,
      [urlRequest('elc-1', 'e-1'), urlRequest('elc-2', 'e-2'), urlRequest('elc-3', 'e-3')],
      [call],
    );
    registry.ended(call, false);
    registry.answered([accept('elc-1'), decline('elc-2'), cancel('elc-3')]);
    registry.add(scope, [urlRequest('elc-4', 'e-4')], []);
    registry.add(scope, [urlRequest('elc-5', 'e-4')], []);
    expect(registry.getSnapshot().map((entry) => [entry.state, entry.reason])).toEqual([
      ['closed', 'call_ended'],
      ['closed', 'declined'],
      ['closed', 'cancelled'],
      ['closed', 'replaced'],
      ['open', undefined],
    ]);
    expect('reason' in registry.getSnapshot()[4]!).toBe(false);
  });

  it('publishes a batch once, and matches server ids as own keys only', () => {
    const registry = createElicitationRegistry(10_000);
    const scope = { serverName: 'one' };
    let changes = 0;
    registry.subscribe(() => (changes += 1));
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    registry.add(
      scope,
      names.map((name, index) => urlRequest(`elc-${index}`, name)),
      [],
    );
    expect(changes).toBe(1);
    expect(registry.find('valueOf')).toBeUndefined();
    expect(registry.complete(scope, 'valueOf')).toBeUndefined();
    expect(registry.find('__proto__')?.request.id).toBe('elc-0');
    expect(registry.complete(scope, 'constructor')?.elicitationId).toBe('constructor');
    registry.answered(names.map((_, index) => accept(`elc-${index}`)));
    expect(changes).toBe(3);
    expect(registry.getSnapshot().map((entry) => entry.state)).toEqual([
      'consented',
      'completed',
      'consented',
      'consented',
    ]);
  });
});

describe('createLegacySpec options', () => {
  it.each([
    ['a negative completionTimeoutMs', { completionTimeoutMs: -1 }],
    ['a NaN completionTimeoutMs', { completionTimeoutMs: Number.NaN }],
    ['a fractional maxRetries', { maxRetries: 1.5 }],
    ['an inbox without answer()', { inbox: {} as never }],
    ['a zero maxElicitations', { maxElicitations: 0 }],
    ['a fractional maxElicitations', { maxElicitations: 2.5 }],
  ])('refuses %s with invalid_options', (_label, options) => {
    let code: string | undefined;
    try {
      createLegacySpec(options);
    } catch (error) {
      code = LegacySpecError.isInstance(error) ? error.code : 'other';
    }
    expect(code).toBe('invalid_options');
  });
});
