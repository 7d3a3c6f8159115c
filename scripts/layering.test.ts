import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering of docs/architecture.md is enforced by eslint's no-restricted-imports. These cases lint a line of
// source as if it sat in each package, so a rule that stops biting fails here.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? [])
    .filter((message) =>
      ['no-restricted-imports', 'no-restricted-syntax'].includes(message.ruleId ?? ''),
    )
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
  // Dynamic imports are held to the same arrows.
  ['packages/core/src/layer.ts', "export const load = () => import('react');"],
  [
    'packages/core/src/layer.ts',
    "export const load = () => import('@modelcontextprotocol/sdk/types.js');",
  ],
  ['packages/react/src/layer.ts', "export const load = () => import('@waitfor/mcp-bridge');"],
  ['packages/mcp-bridge/src/layer.ts', "export const load = () => import('@waitfor/legacy-spec');"],
  ['packages/otel/src/layer.ts', "import { legacySpec } from '@waitfor/legacy-spec';"],
  ['packages/otel/src/layer.ts', "import { RequestList } from '@waitfor/react';"],
  ['packages/otel/src/layer.ts', "import { useState } from 'react';"],
  ['packages/otel/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  ['packages/otel/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge/node';"],
  [
    'packages/otel/src/layer.ts',
    "export const load = () => import('@modelcontextprotocol/sdk/types.js');",
  ],
  // The store sits above core and the bridge: nothing below it may reach up to it.
  ['packages/core/src/layer.ts', "import { createStore } from '@waitfor/store';"],
  ['packages/mcp-bridge/src/layer.ts', "import { createStore } from '@waitfor/store';"],
  ['packages/legacy-spec/src/layer.ts', "import { createStore } from '@waitfor/store';"],
  ['packages/react/src/layer.ts', "import type { StoreInbox } from '@waitfor/store';"],
  ['packages/react/src/layer.ts', "export const load = () => import('@waitfor/store');"],
  ['packages/mcp-bridge/src/layer.ts', "export const load = () => import('@waitfor/store');"],
  ['packages/store/src/layer.ts', "import { RequestList } from '@waitfor/react';"],
  ['packages/store/src/layer.ts', "import { legacySpec } from '@waitfor/legacy-spec';"],
  ['packages/store/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge/node';"],
  ['packages/store/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  // http serves any Inbox to a browser: core (and the bundled runtime) only; nothing below reaches it.
  ['packages/http/src/layer.ts', "import { createStore } from '@waitfor/store';"],
  ['packages/http/src/layer.ts', "export const load = () => import('@waitfor/store');"],
  ['packages/http/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  ['packages/http/src/layer.ts', "import { RequestList } from '@waitfor/react';"],
  ['packages/http/src/layer.ts', "import { useState } from 'react';"],
  ['packages/http/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  ['packages/core/src/layer.ts', "import { createInboxHandler } from '@waitfor/http';"],
  ['packages/react/src/layer.ts', "import { createRemoteInbox } from '@waitfor/http/client';"],
  ['packages/react/src/layer.ts', "export const load = () => import('@waitfor/http/client');"],
  ['packages/mcp-bridge/src/layer.ts', "import { createInboxHandler } from '@waitfor/http';"],
  // Core's one exception, @waitfor/runtime, opens no door to the other packages.
  ['packages/core/src/layer.ts', "export const load = () => import('@waitfor/mcp-bridge/node');"],
  ['packages/core/src/layer.ts', "import { attachWaitFor } from '@waitfor/runtimes';"],
  // The runtime sits below every package: nothing of ours, no React, no MCP.
  ['packages/runtime/src/layer.ts', "import { WaitforError } from '@waitfor/core';"],
  ['packages/runtime/src/layer.ts', "export const load = () => import('@waitfor/core');"],
  ['packages/runtime/src/layer.ts', "import { useState } from 'react';"],
  ['packages/runtime/src/layer.ts', "import type { Client } from '@modelcontextprotocol/client';"],
  // ai-sdk sits beside the store: core and the bridge's public main entry only.
  ['packages/ai-sdk/src/layer.ts', "import { createStore } from '@waitfor/store';"],
  ['packages/ai-sdk/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge/node';"],
  ['packages/ai-sdk/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  ['packages/ai-sdk/src/layer.ts', "export const load = () => import('@waitfor/otel');"],
  ['packages/ai-sdk/src/layer.ts', "import { useState } from 'react';"],
  ['packages/core/src/layer.ts', "import { mcpTools } from '@waitfor/ai-sdk';"],
  // langgraph sits beside ai-sdk: core and the bridge's public main entry only, never each other.
  ['packages/langgraph/src/layer.ts', "import { mcpTools } from '@waitfor/ai-sdk';"],
  ['packages/langgraph/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge/node';"],
  ['packages/langgraph/src/layer.ts', "import { Client } from '@modelcontextprotocol/client';"],
  ['packages/langgraph/src/layer.ts', "export const load = () => import('@waitfor/store');"],
  ['packages/ai-sdk/src/layer.ts', "import { mcpToolNode } from '@waitfor/langgraph';"],
  ['packages/mcp-bridge/src/layer.ts', "import { mcpToolNode } from '@waitfor/langgraph';"],
];

const allowed: Array<[string, string]> = [
  ['packages/react/src/layer.ts', "import { createInbox } from '@waitfor/core';"],
  ['packages/mcp-bridge/src/layer.ts', "import type { Request } from '@waitfor/core';"],
  [
    'packages/mcp-bridge/src/layer.ts',
    "import type { Client } from '@modelcontextprotocol/client';",
  ],
  ['packages/legacy-spec/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  [
    'packages/mcp-bridge/src/layer.ts',
    "export const load = () => import('@modelcontextprotocol/client');",
  ],
  ['packages/react/src/layer.ts', "export const load = () => import('react-dom/client');"],
  ['packages/otel/src/layer.ts', "import { trace } from '@opentelemetry/api';"],
  ['packages/otel/src/layer.ts', "import type { BridgeExtension } from '@waitfor/mcp-bridge';"],
  ['packages/otel/src/layer.ts', "import type { Request } from '@waitfor/core';"],
  ['packages/store/src/layer.ts', "import { createInbox } from '@waitfor/core';"],
  ['packages/store/src/layer.ts', "import { validateFormAnswer } from '@waitfor/core/form';"],
  ['packages/store/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  ['packages/store/src/layer.ts', "export const load = () => import('pg');"],
  ['packages/http/src/layer.ts', "import { parseAnswer } from '@waitfor/core';"],
  ['packages/http/src/layer.ts', "import { validateFormAnswer } from '@waitfor/core/form';"],
  ['packages/http/src/layer.ts', "import { createListeners } from '@waitfor/runtime';"],
  // Every package may use the private runtime it bundles.
  ['packages/core/src/layer.ts', "import { schedule } from '@waitfor/runtime';"],
  ['packages/core/src/layer.ts', "export const load = () => import('@waitfor/runtime');"],
  ['packages/mcp-bridge/src/layer.ts', "import { isRecord } from '@waitfor/runtime';"],
  ['packages/legacy-spec/src/layer.ts', "import { createListeners } from '@waitfor/runtime';"],
  ['packages/react/src/layer.ts', "import { brandClass } from '@waitfor/runtime';"],
  ['packages/store/src/layer.ts', "import { createInbox } from '@waitfor/core';"],
  ['packages/store/src/layer.ts', "import { validateFormAnswer } from '@waitfor/core/form';"],
  ['packages/store/src/layer.ts', "import { attachWaitFor } from '@waitfor/mcp-bridge';"],
  ['packages/store/src/layer.ts', "export const load = () => import('pg');"],
  ['packages/ai-sdk/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge';"],
  ['packages/ai-sdk/src/layer.ts', "import { dynamicTool } from 'ai';"],
  ['packages/langgraph/src/layer.ts', "import { connect } from '@waitfor/mcp-bridge';"],
  ['packages/langgraph/src/layer.ts', "import { interrupt, task } from '@langchain/langgraph';"],
];

describe('layering lint rule', () => {
  it.each(forbidden)('rejects in %s: %s', async (file, source) => {
    expect((await restrictedImports(file, `${source}\nexport {};\n`)).length).toBeGreaterThan(0);
  });

  it.each(allowed)('allows in %s: %s', async (file, source) => {
    expect(await restrictedImports(file, `${source}\nexport {};\n`)).toEqual([]);
  });
});

// The manifests follow the same arrows: what a package may import at run time is what it may depend on.
const manifest = (name: string): Record<string, Record<string, string> | undefined> =>
  JSON.parse(readFileSync(new URL(`../packages/${name}/package.json`, import.meta.url), 'utf8'));
const runtimeDependencies = (name: string): string[] => {
  const { dependencies, peerDependencies } = manifest(name);
  return [...Object.keys(dependencies ?? {}), ...Object.keys(peerDependencies ?? {})];
};

describe('package dependencies follow the layering', () => {
  it.each([
    ['core', /^(@waitfor\/|@modelcontextprotocol\/|react)/],
    ['react', /^(@waitfor\/(mcp-bridge|legacy-spec|store)|@modelcontextprotocol\/)/],
    ['mcp-bridge', /^(@waitfor\/(legacy-spec|react|store)|react)/],
    ['legacy-spec', /^(@waitfor\/(react|store)|react)/],
    ['otel', /^(@waitfor\/(legacy-spec|react)|@modelcontextprotocol\/|react)/],
    [
      'http',
      /^(@waitfor\/(mcp-bridge|legacy-spec|react|otel|store)|@modelcontextprotocol\/|react)/,
    ],
    ['store', /^(@waitfor\/(legacy-spec|react|otel)|@modelcontextprotocol\/|react)/],
  ])('%s depends on nothing it may not import', (name, forbidden) => {
    expect(runtimeDependencies(name).filter((dependency) => forbidden.test(dependency))).toEqual(
      [],
    );
  });
});

// @waitfor/runtime is private: a package bundles it (a dev dependency), so no user ever installs it.
describe('@waitfor/runtime is bundled, never installed', () => {
  const packages = readdirSync(new URL('../packages', import.meta.url)).filter((name) =>
    existsSync(new URL(`../packages/${name}/package.json`, import.meta.url)),
  );

  it('is private and depends on nothing', () => {
    const runtime = manifest('runtime') as Record<string, unknown>;
    expect(runtime['private']).toBe(true);
    expect(runtimeDependencies('runtime')).toEqual([]);
  });

  it.each(packages.filter((name) => name !== 'runtime'))(
    '%s does not list it as a dependency or peer',
    (name) => {
      expect(runtimeDependencies(name)).not.toContain('@waitfor/runtime');
    },
  );

  it.each(['core', 'mcp-bridge', 'legacy-spec', 'react'])(
    '%s lists it as a workspace dev dependency',
    (name) => {
      expect(manifest(name).devDependencies?.['@waitfor/runtime']).toBe('workspace:*');
    },
  );
});
