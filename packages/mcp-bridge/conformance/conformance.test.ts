/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, which needs Node 22:
 * `npx -p node@22` supplies it, found once per file) against the waitfor conformance client, one
 * scenario per test, every client scenario outside the extensions, several at once. A run passes only when the suite exits 0,
 * every expected check is present and SUCCESS, and no check is FAILURE or WARNING (the suite counts
 * a WARNING as a failure too) — except a scenario's known failures, named with their reason: there
 * the failing checks must be exactly those, so a new failure fails the test and a fixed one asks
 * for the entry to go.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, test } from 'vitest';
import { type Expectation, judge, readChecks, runSuite } from './suite';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));
const client = fileURLToPath(new URL('./client.ts', import.meta.url));

interface Scenario extends Expectation {
  scenario: string;
  specVersion?: string;
}

/** What every authorization-code run that ends with a token shows. */
const authorized = [
  'authorization-server-metadata',
  'authorization-request',
  'pkce-code-challenge-sent',
  'pkce-s256-method-used',
  'pkce-verifier-matches-challenge',
  'token-request',
  'valid-bearer-token',
];
/** The same, with dynamic registration first. */
const registered = [...authorized, 'client-registration'];

const scenarios: Scenario[] = [
  { scenario: 'initialize', expected: ['mcp-client-initialization'] },
  {
    scenario: 'tools_call',
    specVersion: '2025-11-25',
    expected: ['tool-add-numbers', 'wire-schema-valid'],
  },
  {
    scenario: 'tools_call',
    specVersion: '2026-07-28',
    expected: ['tool-add-numbers', 'wire-schema-valid'],
  },
  {
    scenario: 'elicitation-sep1034-client-defaults',
    expected: [
      'client-elicitation-sep1034-string-default',
      'client-elicitation-sep1034-integer-default',
      'client-elicitation-sep1034-number-default',
      'client-elicitation-sep1034-enum-default',
      'client-elicitation-sep1034-boolean-default',
    ],
  },
  {
    scenario: 'sep-2322-client-request-state',
    expected: [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-parallel-isolation',
      'sep-2322-client-no-state-omitted',
      'sep-2322-default-result-type-complete',
    ],
  },
  {
    scenario: 'request-metadata',
    expected: [
      'sep-2575-http-client-sends-version-header',
      'sep-2575-client-populates-meta',
      'sep-2575-client-sends-client-info',
      'sep-2575-http-version-header-matches-meta',
      'sep-2575-client-declares-elicitation-capability',
      'sep-2575-client-retry-supported-version',
    ],
    // The client has no sampling or roots handler, so it honestly declares neither capability;
    // the suite then skips the checks of their shape.
    skipped: [
      'sep-2575-client-declares-roots-capability',
      'sep-2575-client-declares-sampling-capability',
    ],
  },
  // Authorization, all through connect's `authProvider` (an OAuthClientProvider) and the headless
  // provider of ./headlessOAuth.ts.
  { scenario: 'auth/metadata-default', expected: [...registered, 'prm-pathbased-requested'] },
  { scenario: 'auth/metadata-var1', expected: registered },
  { scenario: 'auth/metadata-var2', expected: registered },
  { scenario: 'auth/metadata-var3', expected: registered },
  { scenario: 'auth/basic-cimd', expected: [...authorized, 'cimd-client-id-used'] },
  {
    scenario: 'auth/scope-from-www-authenticate',
    expected: [...registered, 'scope-from-www-authenticate'],
  },
  {
    scenario: 'auth/scope-from-scopes-supported',
    expected: [...registered, 'scope-from-scopes-supported'],
  },
  {
    scenario: 'auth/scope-omitted-when-undefined',
    expected: [...registered, 'scope-omitted-when-undefined'],
  },
  // The step-up is finished mid-session with connection.finishAuth, then the call runs again.
  {
    scenario: 'auth/scope-step-up',
    expected: [...registered, 'scope-step-up-initial', 'scope-step-up-escalation'],
  },
  { scenario: 'auth/scope-retry-limit', expected: ['client-registration', 'scope-retry-limit'] },
  {
    scenario: 'auth/token-endpoint-auth-basic',
    expected: [...registered, 'resource-parameter-in-token'],
  },
  { scenario: 'auth/token-endpoint-auth-post', expected: registered },
  { scenario: 'auth/token-endpoint-auth-none', expected: registered },
  { scenario: 'auth/pre-registration', expected: [...authorized, 'pre-registration-auth'] },
  { scenario: 'auth/2025-03-26-oauth-metadata-backcompat', expected: registered },
  {
    scenario: 'auth/2025-03-26-oauth-endpoint-fallback',
    expected: [
      'authorization-request',
      'client-registration',
      'token-request',
      'valid-bearer-token',
    ],
  },
  { scenario: 'auth/resource-mismatch', expected: ['resource-mismatch-rejected'] },
  {
    scenario: 'auth/offline-access-scope',
    expected: [...authorized, 'sep-2207-offline-access-requested'],
  },
  {
    scenario: 'auth/offline-access-not-supported',
    expected: [...registered, 'sep-2207-offline-access-not-requested'],
  },
  // The resource moves to another authorization server mid-session: registered with and
  // authorized at afresh (credentials are kept per issuer), through connection.finishAuth.
  {
    scenario: 'auth/authorization-server-migration',
    expected: [
      'sep-2352-reregister-on-as-change',
      'sep-2352-no-reuse-on-as-change',
      'sep-2352-no-cross-as-credential-reuse',
    ],
  },
  {
    scenario: 'auth/iss-supported',
    expected: [...registered, 'sep-2468-client-compare-iss-supported'],
  },
  {
    scenario: 'auth/iss-not-advertised',
    expected: [...registered, 'sep-2468-client-proceed-no-iss'],
  },
  { scenario: 'auth/iss-supported-missing', expected: ['sep-2468-client-reject-missing-iss'] },
  { scenario: 'auth/iss-wrong-issuer', expected: ['sep-2468-client-compare-iss-supported'] },
  { scenario: 'auth/iss-unexpected', expected: ['sep-2468-client-compare-iss-unadvertised'] },
  { scenario: 'auth/iss-normalized', expected: ['sep-2468-client-no-normalization'] },
  {
    scenario: 'auth/metadata-issuer-mismatch',
    expected: ['sep-2468-client-validate-metadata-issuer'],
  },
  {
    scenario: 'sse-retry',
    expected: [
      'client-sse-graceful-reconnect',
      'client-sse-retry-timing',
      'client-sse-last-event-id',
    ],
  },
  {
    scenario: 'http-standard-headers',
    expected: ['sep-2243-client-includes-standard-headers'],
    // The header mocks answer no server/discover, so the client establishes the modern era from a
    // local discover answer and never sends initialize: the suite skips those two header checks.
    skipped: ['sep-2243-client-includes-standard-headers'],
  },
  {
    scenario: 'http-custom-headers',
    expected: [
      'sep-2243-client-supports-custom-headers',
      'sep-2243-client-mirrors-designated-params',
      'sep-2243-client-encode-values',
      'sep-2243-client-base64-unsafe',
      'sep-2243-client-omit-null',
    ],
  },
  {
    scenario: 'http-invalid-tool-headers',
    expected: [
      'sep-2243-client-reject-invalid-tool',
      'sep-2243-x-mcp-header-charset',
      'sep-2243-x-mcp-header-not-empty',
      'sep-2243-x-mcp-header-primitive-only',
      'sep-2243-x-mcp-header-unique',
    ],
  },
  { scenario: 'json-schema-ref-no-deref', expected: ['sep-2106-no-network-ref-deref'] },
  {
    scenario: 'json-schema-2020-12-preservation',
    expected: [
      'json-schema-2020-12-client-tool-found',
      'json-schema-2020-12-client-echo-completed',
      'json-schema-2020-12-client-$schema-preserved',
      'json-schema-2020-12-client-$defs-preserved',
      'json-schema-2020-12-client-additionalProperties-preserved',
      'sep-2106-client-anchor-keyword-preserved',
      'sep-2106-client-composition-keywords-preserved',
      'sep-2106-client-conditional-keywords-preserved',
    ],
  },
];

const outputDirectories: string[] = [];
afterAll(async () => {
  await Promise.all(
    outputDirectories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('official MCP conformance suite', () => {
  const labelled = scenarios.map((entry) => ({
    ...entry,
    label:
      entry.specVersion === undefined
        ? entry.scenario
        : `${entry.scenario} at ${entry.specVersion}`,
  }));
  // Concurrently (vitest's maxConcurrency, 5): each run mostly waits on its child processes.
  test.concurrent.for(labelled)(
    '$label',
    { timeout: 180_000 },
    // The test's own `expect`: assertions of concurrent tests must not share one.
    async ({ scenario, specVersion, expected, skipped, knownFailures }, { expect }) => {
      const output = await mkdtemp(join(tmpdir(), 'waitfor-conformance-'));
      outputDirectories.push(output);
      const args = [
        'client',
        '--command',
        `${tsx} --tsconfig ${tsconfig} ${client}`,
        '--scenario',
        scenario,
        '-o',
        output,
      ];
      if (specVersion !== undefined) args.push('--spec-version', specVersion);
      const result = await runSuite(...args);

      const { checks, directory } = await readChecks(output, expect, result.output);
      const clientOutput = await readFile(join(directory, 'stderr.txt'), 'utf8').catch(() => '');
      const context = `${result.output}\n--- client stderr ---\n${clientOutput}`;
      judge(expect, checks, result.code, { expected, skipped, knownFailures }, context);
    },
  );
});
