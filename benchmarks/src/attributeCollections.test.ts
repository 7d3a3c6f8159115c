import { describe, expect, it } from 'vitest';
import { attributeCollections, PAUSE_FACTOR } from './attributeCollections';
import type { Sample } from './sampleCalls';

/** `count` calls of a fixed cost and allocation. */
const quiet = (count: number, cpu: number, heap: number): Sample[] =>
  Array.from({ length: count }, () => ({ cpu, wall: cpu, heap }));

/** A call that also paid `collection` ms for a collection that freed more than it allocated. */
const collecting = (cpu: number, collection: number): Sample => ({
  cpu: cpu + collection,
  wall: cpu + collection,
  heap: -1_000_000,
});

describe('attributeCollections', () => {
  it('shares the collection time by bytes allocated, whichever calls happened to pay for it', () => {
    // a: 0.2 ms and 200 bytes per call; b: 0.1 ms and 100 bytes; 3 ms of collections, all of it
    // landing on b's calls.
    const samples = {
      a: quiet(10, 0.2, 200),
      b: [...quiet(8, 0.1, 100), collecting(0.1, 1), collecting(0.1, 2)],
    };
    const costs = attributeCollections(samples);
    expect(costs.a!.mutatorCpu).toBeCloseTo(0.2);
    expect(costs.b!.mutatorCpu).toBeCloseTo(0.1);
    expect(costs.a!.allocatedBytes).toBeCloseTo(200);
    expect(costs.b!.collections).toBe(2);
    // a allocated 2,000 of 3,000 bytes: 2 ms over 10 calls; b 1 ms over its 10.
    expect(costs.a!.collectorCpu).toBeCloseTo(0.2);
    expect(costs.b!.collectorCpu).toBeCloseTo(0.1);
    expect(costs.a!.cpu / costs.b!.cpu).toBeCloseTo(2);
    expect(costs.a!.wall / costs.b!.wall).toBeCloseTo(2);
    // The plain means blame b for every collection: a ÷ b would read 0.5.
    expect(costs.a!.rawCpu / costs.b!.rawCpu).toBeCloseTo(0.5);

    const moved = attributeCollections({
      a: [...quiet(8, 0.2, 200), collecting(0.2, 1), collecting(0.2, 2)],
      b: quiet(10, 0.1, 100),
    });
    expect(moved.a!.cpu).toBeCloseTo(costs.a!.cpu);
    expect(moved.b!.cpu).toBeCloseTo(costs.b!.cpu);
  });

  it('shares pauses by the time each variant ran, whichever calls happened to stall', () => {
    // a: 0.2 ms per call; b: 0.1 ms; one 3 ms stall without a collection, on one of b's calls.
    const stall = { cpu: 0.1 + 3, wall: 0.1 + 3, heap: 100 };
    const costs = attributeCollections({
      a: quiet(10, 0.2, 100),
      b: [...quiet(9, 0.1, 100), stall],
    });
    expect(costs.b!.pauses).toBe(1);
    expect(costs.b!.mutatorCpu).toBeCloseTo(0.1);
    // a ran 2 ms of the 3 ms of regular time: it takes 2 ms of the stall, 0.2 ms per call.
    expect(costs.a!.pauseCpu).toBeCloseTo(0.2);
    expect(costs.b!.pauseCpu).toBeCloseTo(0.1);
    expect(costs.a!.cpu / costs.b!.cpu).toBeCloseTo(2);
    const moved = attributeCollections({
      a: [...quiet(9, 0.2, 100), { ...stall, cpu: 0.2 + 3 }],
      b: quiet(10, 0.1, 100),
    });
    expect(moved.a!.cpu).toBeCloseTo(costs.a!.cpu);
    expect(moved.b!.cpu).toBeCloseTo(costs.b!.cpu);
  });

  it('counts a slow call as a pause only beyond PAUSE_FACTOR times its median', () => {
    const slow = (factor: number) => ({ cpu: 0.1 * factor, wall: 0.1 * factor, heap: 100 });
    const below = attributeCollections({ a: [...quiet(9, 0.1, 100), slow(PAUSE_FACTOR - 1)] });
    expect(below.a!.pauses).toBe(0);
    expect(below.a!.cpu).toBeCloseTo((0.9 + 0.1 * (PAUSE_FACTOR - 1)) / 10);
    const beyond = attributeCollections({ a: [...quiet(9, 0.1, 100), slow(PAUSE_FACTOR + 1)] });
    expect(beyond.a!.pauses).toBe(1);
  });

  it('gives the plain means when no collection ran', () => {
    const costs = attributeCollections({ a: quiet(5, 0.3, 50), b: quiet(5, 0.1, 10) });
    expect(costs.a!.cpu).toBeCloseTo(0.3);
    expect(costs.a!.collectorCpu).toBe(0);
    expect(costs.b!.cpu).toBeCloseTo(0.1);
  });

  it('refuses a variant without samples, or without a call free of collections', () => {
    expect(() => attributeCollections({ a: quiet(3, 1, 1), b: [] })).toThrow(RangeError);
    expect(() => attributeCollections({ a: quiet(3, 1, 1), b: [collecting(1, 1)] })).toThrow(
      /every sample of b/,
    );
  });
});
