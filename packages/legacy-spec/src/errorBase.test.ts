import { describe, expect, it } from 'vitest';
import { isWaitforError, WaitforError } from '@waitfor/core';
import { BridgeError, isBridgeError } from '@waitfor/mcp-bridge';
import { isLegacySpecError, LegacySpecError } from './index';

// The two MCP-side packages' errors on the one base; each keeps its own marker.
const cases = [
  ['BridgeError', () => new BridgeError('timeout', 'x'), isBridgeError],
  ['LegacySpecError', () => new LegacySpecError('elicitation_loop', 'x'), isLegacySpecError],
] as const;

describe.each(cases)('%s', (name, make, isOwn) => {
  it('is a WaitforError with its own marker, and keeps its code, message and cause', () => {
    const cause = new Error('underneath');
    const error = make();
    expect([error.name, error.message]).toEqual([name, 'x']);
    expect(isWaitforError(error) && WaitforError.isInstance(error) && isOwn(error)).toBe(true);
    expect(error instanceof WaitforError).toBe(true);
    expect(isOwn(new WaitforError('aborted', 'x', { cause }))).toBe(false);
    for (const [other, makeOther] of cases)
      if (other !== name) expect(isOwn(makeOther())).toBe(false);
  });
});

describe('shared codes', () => {
  it('invalid_options, aborted, invalid_suspension: one spelling across the packages', () => {
    const codes = [
      new BridgeError('invalid_options', 'x').code,
      new LegacySpecError('invalid_options', 'x').code,
      new WaitforError('invalid_options', 'x').code,
    ];
    expect(new Set(codes)).toEqual(new Set(['invalid_options']));
    expect(new BridgeError('invalid_suspension', 'x').code).toBe('invalid_suspension');
  });

  it('an invalid form answer to resume carries its per-field messages as `errors`', () => {
    const errors = { seats: 'Too many.' };
    expect(new BridgeError('invalid_answer', 'x', { errors }).errors).toEqual(errors);
  });
});
