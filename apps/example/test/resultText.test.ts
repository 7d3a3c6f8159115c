import { describe, expect, it } from 'vitest';
import { readableError } from '../src/web/resultText.js';

describe('readableError', () => {
  it("strips the bridge's prefix and the SDK's inside it: no doubled codes", () => {
    expect(
      readableError(new Error('Server error -32042: MCP error -32042: URL elicitation required')),
    ).toBe('URL elicitation required');
  });

  it("strips the SDK's own prefix and a bare code, and leaves other text alone", () => {
    expect(readableError(new Error('MCP error -32603: Internal failure'))).toBe('Internal failure');
    expect(readableError(new Error('-32000: Gone'))).toBe('Gone');
    expect(readableError(new Error('Booked 2 nights: ref 12345: ok'))).toBe(
      'Booked 2 nights: ref 12345: ok',
    );
  });
});
