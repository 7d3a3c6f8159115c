import { describe, expect, it } from 'vitest';
import { originOf } from './profile';
import { formatValue, renderMarkdown } from './report';
import type { BenchResult } from './result';
import type { Machine } from './machine';

const machine: Machine = {
  cpu: 'Test CPU',
  cores: 2,
  memoryGiB: 4,
  node: 'v20.0.0',
  os: 'linux',
  date: '2026-01-02T03:04:05.000Z',
  loadAtStart: 0.1,
  loadAtEnd: 0.2,
};

const result: BenchResult = {
  id: 'sample',
  title: '9. Sample',
  method: 'How it was measured.',
  figures: [
    { name: 'fast enough', value: 1.02, unit: '×', runs: 5, budget: { max: 1.1, label: '≤ 1.10' } },
    { name: 'too big', value: 3.5, unit: 'KB', runs: 1, budget: { max: 3, label: '≤ 3.00 KB' } },
    { name: 'plain', value: 0.0123, unit: 'ms', runs: 7 },
  ],
  notes: ['too big because of a note'],
};

describe('renderMarkdown', () => {
  it('lists every figure, the machine, the date and each miss with its note', () => {
    const markdown = renderMarkdown(machine, [result], [{ id: 'broken', error: 'boom' }], 12);
    expect(markdown).toContain('| CPU | Test CPU |');
    expect(markdown).toContain('| Node.js | v20.0.0 |');
    expect(markdown).toContain('2026-01-02');
    expect(markdown).toContain('1 of 2 budgeted figures are within budget; missed: too big.');
    expect(markdown).toMatch(
      /\| 9\. Sample \| too big \| 3\.50 KB \| 1 \| ≤ 3\.00 KB \| \*\*NO\*\* \|/,
    );
    expect(markdown).toMatch(/\| 9\. Sample \| fast enough \| 1\.02× \| 5 \| ≤ 1\.10 \| yes \|/);
    expect(markdown).toContain('- too big because of a note');
    expect(markdown).toContain('`broken`: boom');
    expect(markdown).not.toContain('machine was busy');
    expect(markdown).toContain('| benchmark | figure | value | runs | budget | within | detail |');
    expect(markdown).toContain('A/A control');
  });

  it('warns when the machine was busy', () => {
    const busy = renderMarkdown({ ...machine, loadAtStart: 6 }, [result], [], 1);
    expect(busy).toContain('The machine was busy during this run (load 6.0 on 2 cores)');
  });
});

describe('formatValue', () => {
  it('picks a unit that suits the size of a duration', () => {
    expect(formatValue({ name: '', value: 250, unit: 'ms', runs: 1 })).toBe('250 ms');
    expect(formatValue({ name: '', value: 1.5, unit: 'ms', runs: 1 })).toBe('1.50 ms');
    expect(formatValue({ name: '', value: 0.0123, unit: 'ms', runs: 1 })).toBe('12.3 µs');
    expect(formatValue({ name: '', value: 724.6, unit: 'bytes', runs: 1 })).toBe('725 bytes');
  });
});

describe('originOf', () => {
  const frame = (url: string, functionName = 'f') => ({
    url,
    functionName,
    lineNumber: 0,
    columnNumber: 0,
  });
  it('names dependencies by package and runtime frames by kind', () => {
    expect(
      originOf(frame('file:///w/node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/parse.js')),
    ).toBe('zod');
    expect(
      originOf(
        frame(
          'file:///w/node_modules/.pnpm/@modelcontextprotocol+client@2.4.0/node_modules/@modelcontextprotocol/client/dist/index.mjs',
        ),
      ),
    ).toBe('@modelcontextprotocol/client');
    expect(originOf(frame('node:internal/process/task_queues'))).toBe('node internals');
    expect(originOf(frame('', '(garbage collector)'))).toBe('(garbage collector)');
  });
});
