import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering of design.md is enforced by eslint's no-restricted-imports. These cases lint a line of
// source as if it sat in each package, so a rule that stops biting fails here.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

const forbidden: Array<[string, string]> = [
  ['packages/core/src/layer.ts', "import { useState } from 'react';"],
  ['packages/core/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  [
    'packages/core/src/layer.ts',
    "import { Client } from '@modelcontextprotocol/sdk/client/index.js';",
  ],
  ['packages/core/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  ['packages/react/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  ['packages/react/src/layer.ts', "import type { Client } from '@modelcontextprotocol/client';"],
  ['packages/mcp-bridge/src/layer.ts', "import { legacySpec } from '@waitfor/legacy-spec';"],
  ['packages/mcp-bridge/src/layer.ts', "import { useState } from 'react';"],
  ['packages/legacy-spec/src/layer.ts', "import { RequestList } from '@waitfor/react';"],
];

const allowed: Array<[string, string]> = [
  ['packages/react/src/layer.ts', "import { createInbox } from '@waitfor/core';"],
  ['packages/mcp-bridge/src/layer.ts', "import type { Request } from '@waitfor/core';"],
  [
    'packages/mcp-bridge/src/layer.ts',
    "import type { Client } from '@modelcontextprotocol/client';",
  ],
  ['packages/legacy-spec/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
];

describe('layering lint rule', () => {
  it.each(forbidden)('rejects in %s: %s', async (file, source) => {
    expect((await restrictedImports(file, `${source}\nexport {};\n`)).length).toBeGreaterThan(0);
  });

  it.each(allowed)('allows in %s: %s', async (file, source) => {
    expect(await restrictedImports(file, `${source}\nexport {};\n`)).toEqual([]);
  });
});
