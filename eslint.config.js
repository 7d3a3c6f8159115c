import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const mcpSdks = ['@modelcontextprotocol/*', '@modelcontextprotocol/**'];
const react = ['react', 'react/*', 'react-dom', 'react-dom/*', 'react-18', 'react-dom-18'];

/** The layering of design.md: arrows are the only allowed imports. */
const layer = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx', '**/__fixtures__/**', '**/__tests__/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: patterns.map((group) => ({ group: group.names, message: group.message })) },
    ],
  },
});

export const layering = [
  layer(
    ['packages/core/src/**'],
    [
      { names: react, message: 'core knows nothing of React (design.md layering).' },
      { names: mcpSdks, message: 'core knows nothing of MCP (design.md layering).' },
      { names: ['@waitfor/*'], message: 'core imports no other @waitfor package.' },
    ],
  ),
  layer(
    ['packages/react/src/**'],
    [
      { names: mcpSdks, message: 'react answers Requests; it does not speak MCP.' },
      {
        names: [
          '@waitfor/mcp-bridge',
          '@waitfor/mcp-bridge/*',
          '@waitfor/legacy-spec',
          '@waitfor/legacy-spec/*',
        ],
        message: 'react imports only @waitfor/core (design.md layering).',
      },
    ],
  ),
  layer(
    ['packages/mcp-bridge/src/**'],
    [
      {
        names: [
          '@waitfor/legacy-spec',
          '@waitfor/legacy-spec/*',
          '@waitfor/react',
          '@waitfor/react/*',
        ],
        message:
          'mcp-bridge never imports legacy-spec or react; legacy-spec plugs into the bridge.',
      },
      { names: react, message: 'mcp-bridge knows nothing of React.' },
    ],
  ),
  layer(
    ['packages/legacy-spec/src/**'],
    [
      {
        names: ['@waitfor/react', '@waitfor/react/*'],
        message: 'legacy-spec never imports react.',
      },
      { names: react, message: 'legacy-spec knows nothing of React.' },
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
);
