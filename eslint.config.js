import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const mcpSdks = {
  names: ['@modelcontextprotocol/*', '@modelcontextprotocol/**'],
  pattern: '^@modelcontextprotocol/',
};
const react = {
  names: ['react', 'react/*', 'react-dom', 'react-dom/*', 'react-18', 'react-dom-18'],
  pattern: '^react(-dom)?(-18)?(/|$)',
};
const waitfor = (...packages) => ({
  names: packages.flatMap((name) => [`@waitfor/${name}`, `@waitfor/${name}/*`]),
  pattern: `^@waitfor/(${packages.join('|')})(/|$)`,
});

/**
 * The layering of docs/architecture.md ("Packages and layers"): arrows are the only allowed
 * imports. Static imports are checked by no-restricted-imports, dynamic `import()` by
 * no-restricted-syntax.
 */
const layer = (files, groups) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx', '**/__fixtures__/**', '**/__tests__/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: groups.map((group) => ({ group: group.names, message: group.message })) },
    ],
    'no-restricted-syntax': [
      'error',
      ...groups.map((group) => ({
        selector: `ImportExpression[source.value=/${group.pattern.replaceAll('/', '\\/')}/]`,
        message: group.message,
      })),
    ],
  },
});

export const layering = [
  layer(
    ['packages/core/src/**'],
    [
      { ...react, message: 'core knows nothing of React (docs/architecture.md layering).' },
      { ...mcpSdks, message: 'core knows nothing of MCP (docs/architecture.md layering).' },
      {
        // The private runtime is the one exception: it is bundled into core, not a dependency.
        names: ['@waitfor/*', '!@waitfor/runtime'],
        pattern: '^@waitfor/(?!runtime$)',
        message: 'core imports no other @waitfor package (only the bundled @waitfor/runtime).',
      },
    ],
  ),
  layer(
    ['packages/runtime/src/**'],
    [
      { ...react, message: 'runtime knows nothing of React.' },
      { ...mcpSdks, message: 'runtime knows nothing of MCP.' },
      {
        names: ['@waitfor/*'],
        pattern: '^@waitfor/',
        message: 'runtime imports no @waitfor package: every package bundles it.',
      },
    ],
  ),
  layer(
    ['packages/react/src/**'],
    [
      { ...mcpSdks, message: 'react answers Requests; it does not speak MCP.' },
      {
        ...waitfor('mcp-bridge', 'legacy-spec', 'store', 'http', 'ai-sdk', 'langgraph', 'gateway'),
        message: 'react imports only @waitfor/core (docs/architecture.md layering).',
      },
    ],
  ),
  layer(
    ['packages/mcp-bridge/src/**'],
    [
      {
        ...waitfor('legacy-spec', 'react'),
        message:
          'mcp-bridge never imports legacy-spec or react; legacy-spec plugs into the bridge.',
      },
      {
        ...waitfor('store'),
        message: 'mcp-bridge never imports the store; the store builds on the bridge.',
      },
      {
        ...waitfor('http'),
        message: 'mcp-bridge never imports http; http serves any inbox to a browser.',
      },
      {
        ...waitfor('ai-sdk'),
        message: 'mcp-bridge never imports ai-sdk; the adapter builds on the bridge.',
      },
      {
        ...waitfor('langgraph'),
        message: 'mcp-bridge never imports langgraph; the adapter builds on the bridge.',
      },
      {
        ...waitfor('gateway'),
        message: 'mcp-bridge never imports the gateway; the gateway builds on the bridge.',
      },
      { ...react, message: 'mcp-bridge knows nothing of React.' },
    ],
  ),
  layer(
    ['packages/legacy-spec/src/**'],
    [
      { ...waitfor('react'), message: 'legacy-spec never imports react.' },
      { ...waitfor('store'), message: 'legacy-spec never imports the store.' },
      { ...waitfor('ai-sdk'), message: 'legacy-spec never imports ai-sdk.' },
      { ...waitfor('langgraph'), message: 'legacy-spec never imports langgraph.' },
      { ...waitfor('gateway'), message: 'legacy-spec never imports the gateway.' },
      { ...react, message: 'legacy-spec knows nothing of React.' },
    ],
  ),
  layer(
    ['packages/otel/src/**'],
    [
      {
        ...waitfor('legacy-spec', 'react', 'store', 'ai-sdk', 'langgraph', 'gateway'),
        message: 'otel imports only @waitfor/core, @waitfor/mcp-bridge and @opentelemetry/api.',
      },
      {
        names: ['@waitfor/mcp-bridge/*'],
        pattern: '^@waitfor/mcp-bridge/',
        message: "otel uses the bridge's public main entry only.",
      },
      { ...react, message: 'otel knows nothing of React.' },
      { ...mcpSdks, message: 'otel sees calls through the bridge, never an MCP SDK.' },
    ],
  ),
  layer(
    ['packages/http/src/**'],
    [
      {
        ...waitfor(
          'mcp-bridge',
          'legacy-spec',
          'react',
          'otel',
          'store',
          'ai-sdk',
          'langgraph',
          'gateway',
        ),
        message: 'http imports only @waitfor/core: it serves any Inbox, the store one included.',
      },
      { ...react, message: 'http knows nothing of React.' },
      { ...mcpSdks, message: 'http serves questions, never an MCP SDK.' },
    ],
  ),
  layer(
    ['packages/store/src/**'],
    [
      {
        ...waitfor('legacy-spec', 'react', 'otel', 'ai-sdk', 'langgraph', 'gateway'),
        message: 'the store imports @waitfor/core, and @waitfor/mcp-bridge for durable calls only.',
      },
      {
        names: ['@waitfor/mcp-bridge/*'],
        pattern: '^@waitfor/mcp-bridge/',
        message: "the store uses the bridge's public main entry only.",
      },
      { ...react, message: 'the store knows nothing of React.' },
      { ...mcpSdks, message: 'the store reaches MCP servers through the bridge, never an SDK.' },
    ],
  ),
  layer(
    ['packages/ai-sdk/src/**'],
    [
      {
        ...waitfor('legacy-spec', 'react', 'otel', 'store', 'http', 'langgraph', 'gateway'),
        message:
          'ai-sdk imports only @waitfor/core and @waitfor/mcp-bridge (docs/architecture.md).',
      },
      {
        names: ['@waitfor/mcp-bridge/*'],
        pattern: '^@waitfor/mcp-bridge/',
        message: "ai-sdk uses the bridge's public main entry only.",
      },
      { ...react, message: 'ai-sdk knows nothing of React.' },
      { ...mcpSdks, message: 'ai-sdk reaches MCP servers through the bridge, never an SDK.' },
    ],
  ),
  layer(
    ['packages/langgraph/src/**'],
    [
      {
        ...waitfor('legacy-spec', 'react', 'otel', 'store', 'http', 'ai-sdk', 'gateway'),
        message:
          'langgraph imports only @waitfor/core and @waitfor/mcp-bridge (docs/architecture.md).',
      },
      {
        names: ['@waitfor/mcp-bridge/*'],
        pattern: '^@waitfor/mcp-bridge/',
        message: "langgraph uses the bridge's public main entry only.",
      },
      { ...react, message: 'langgraph knows nothing of React.' },
      { ...mcpSdks, message: 'langgraph reaches MCP servers through the bridge, never an SDK.' },
    ],
  ),
  // The gateway is the top layer: it may use core, the bridge, legacy-spec, http, store, react and
  // the MCP SDKs (it serves hosts); nothing imports it (every layer above lists it).
  layer(
    ['packages/gateway/src/**'],
    [
      {
        ...waitfor('otel', 'ai-sdk', 'langgraph'),
        message: 'the gateway builds on core, the bridge, legacy-spec, http, store and react only.',
      },
    ],
  ),
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      'coverage/**',
      '.test-results/**',
      'artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...layering,
  // The rules of hooks and the React Compiler's checks, for the React code only. exhaustive-deps is
  // an error here: a missed dependency is a stale value, not a style question.
  {
    ...reactHooks.configs.flat.recommended,
    files: ['packages/react/src/**/*.{ts,tsx}', 'apps/example/src/web/**/*.{ts,tsx}'],
  },
  {
    files: ['packages/react/src/**/*.{ts,tsx}', 'apps/example/src/web/**/*.{ts,tsx}'],
    rules: { 'react-hooks/exhaustive-deps': 'error' },
  },
);
