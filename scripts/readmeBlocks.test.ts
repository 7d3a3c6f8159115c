import { describe, expect, it } from 'vitest';
import {
  importedPackages,
  installedPackages,
  packageQuickStart,
  rootQuickStart,
} from './readmeBlocks';

const fence = '```';

describe('README quick starts', () => {
  const root = [
    '# x',
    `${fence}ts`,
    'before();',
    fence,
    '## Quick start',
    `${fence}sh`,
    'npm install a',
    fence,
    `${fence}ts`,
    'const a = 1;',
    fence,
    '<!-- readme-check: continues -->',
    `${fence}tsx`,
    'const b = <p>{a}</p>;',
    fence,
    '<!-- readme-check: skip -->',
    `${fence}ts`,
    'fragment(a);',
    fence,
    `${fence}ts`,
    'const c = 3;',
    fence,
    '## Later',
    `${fence}ts`,
    'after();',
    fence,
  ].join('\n');

  it('takes every block of the Quick start section, joins a continued one, leaves a skipped one', () => {
    expect(rootQuickStart(root)).toEqual([
      { extension: 'tsx', code: 'const a = 1;\nconst b = <p>{a}</p>;', line: 9 },
      { extension: 'ts', code: 'const c = 3;', line: 20 },
    ]);
  });

  it("takes a package README's first TypeScript block and what continues it", () => {
    const readme = [
      `${fence}sh`,
      'npm install a',
      fence,
      `${fence}ts`,
      'first();',
      fence,
      `${fence}ts`,
      'second();',
      fence,
      '<!-- readme-check: continues -->',
      `${fence}ts`,
      'third();',
      fence,
    ].join('\n');
    expect(packageQuickStart(readme)).toEqual([
      { extension: 'ts', code: 'first();\nthird();', line: 4 },
    ]);
  });

  it('refuses a continued block with nothing checked above it, and an unclosed block', () => {
    expect(() =>
      packageQuickStart(['<!-- readme-check: continues -->', `${fence}ts`, 'x;', fence].join('\n')),
    ).toThrow('continues, but no checked block is above it');
    expect(() => rootQuickStart(`${fence}ts\nx;`)).toThrow('never closed');
  });
});

describe('package names', () => {
  it('reads the packages code imports (scoped, subpaths, type-only; not node: or relative)', () => {
    const code = [
      "import { a } from '@waitfor/core';",
      "import { b } from '@waitfor/mcp-bridge/node';",
      "import type { C } from 'react';",
      "import 'zod/v4';",
      "import { d } from 'node:http';",
      "import { e } from './local';",
    ].join('\n');
    expect(importedPackages(code)).toEqual([
      '@waitfor/core',
      '@waitfor/mcp-bridge',
      'react',
      'zod',
    ]);
  });

  it('reads the packages npm install lines name (comments, flags and versions left out)', () => {
    const shell = [
      'npm install @waitfor/core react@19 --save-exact',
      '# only for zod: npm install nothing',
      'npm i zod',
    ].join('\n');
    expect(installedPackages(shell)).toEqual(['@waitfor/core', 'react', 'zod']);
  });
});
