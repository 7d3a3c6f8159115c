/** The ai 7 run is what it says: the AI SDK's major 7, on Node 22 or later. */
import { describe, expect, it } from 'vitest';
import { aiMajor } from '../__fixtures__/model';

describe('the ai 7 run', () => {
  it('runs ai 7 on Node ≥ 22', () => {
    expect(aiMajor).toBe(7);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  });
});
