/**
 * The official conformance suite's server scenarios against the "everything" fixture directly, then
 * against the gateway fronting it — with the fixture as a 2025 upstream and as a 2026-07-28 one —
 * and the same checks with the same statuses each time. One suite run per target and host
 * revision (the suite's active 2025-11-25 set; every 2026-07-28 scenario), then one test per
 * scenario judged like the bridge's conformance tests (../../mcp-bridge/conformance/suite.ts).
 *
 * Left out, run but not asserted (the fixture does not implement what they probe, directly either):
 * `server-stateless` (needs the diagnostic tools `test_missing_capability`,
 * `test_streaming_elicitation`, `test_logging_tool` and list mutations),
 * `input-required-result-non-tool-request` (a prompt that asks) and
 * `input-required-result-capability-check` (`test_input_required_result_capabilities`).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Check,
  type Expectation,
  judge,
  readChecks,
  runSuite,
} from '../../mcp-bridge/conformance/suite';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from '../src/index';
import { startEverythingServer } from './everythingServer';

type Revision = '2025-11-25' | '2026-07-28';

type UpstreamEra = 'legacy' | 'modern';

interface Scenario extends Expectation {
  scenario: string;
  revisions: Revision[];
  /**
   * Checks that fail through the gateway only, per upstream era, each with its reason (or are not
   * run: a scenario may stop at its first failure): the test fails when they pass (fixed) as well
   * as when others fail.
   */
  gatewayFailures?: Partial<Record<UpstreamEra, string[]>>;
  /**
   * Checks of a capability the gateway rightly does not offer through an upstream of this era:
   * judged as the suite judges any server without it (it asks regardless), refused with -32601.
   */
  notOffered?: Partial<Record<UpstreamEra, string[]>>;
}

/**
 * In front of a 2025 server the gateway hands a 2026-07-28 host its questions under keys of its
 * own (q1, q2, …): a push carries no key to keep, and these checks look for the server's key
 * (`user_name`). Behind a 2026-07-28 server the server's own keys pass through.
 */
const rekeyed: Record<string, string[]> = {
  // The scenario stops at the first: its -complete check is not run.
  'basic-elicitation': ['sep-2322-elicitation-incomplete', 'sep-2322-elicitation-complete'],
  'ignore-extra-params': ['sep-2322-ignore-unexpected-params'],
};

const both: Revision[] = ['2025-11-25', '2026-07-28'];
const legacyOnly: Revision[] = ['2025-11-25'];
const modernOnly: Revision[] = ['2026-07-28'];
const wire = 'wire-schema-valid';

const scenarios: Scenario[] = [
  {
    scenario: 'server-initialize',
    revisions: legacyOnly,
    expected: ['server-initialize', wire],
  },
  {
    scenario: 'server-session-lifecycle',
    revisions: legacyOnly,
    expected: [
      'server-session-initialized-accepted',
      'server-session-delete-accepted',
      'server-session-terminated-returns-404',
    ],
  },
  { scenario: 'logging-set-level', revisions: legacyOnly, expected: ['logging-set-level', wire] },
  { scenario: 'ping', revisions: legacyOnly, expected: ['ping', wire] },
  { scenario: 'completion-complete', revisions: both, expected: ['completion-complete', wire] },
  { scenario: 'tools-list', revisions: both, expected: ['tools-list', wire] },
  ...[
    'simple-text',
    'image',
    'audio',
    'embedded-resource',
    'mixed-content',
    'error',
    'with-progress',
  ].map((name) => ({
    scenario: `tools-call-${name}`,
    revisions: both,
    expected: [`tools-call-${name}`, wire],
  })),
  {
    scenario: 'tools-call-with-logging',
    revisions: legacyOnly,
    expected: ['tools-call-with-logging', wire],
  },
  ...['sampling', 'elicitation'].map((name) => ({
    scenario: `tools-call-${name}`,
    revisions: legacyOnly,
    expected: [`tools-call-${name}`, wire],
  })),
  { scenario: 'elicitation-sep1034-defaults', revisions: legacyOnly, expected: [wire] },
  { scenario: 'elicitation-sep1330-enums', revisions: legacyOnly, expected: [wire] },
  { scenario: 'server-sse-multiple-streams', revisions: both, expected: [] },
  { scenario: 'json-schema-2020-12', revisions: modernOnly, expected: [wire] },
  ...['list', 'read-text', 'read-binary', 'templates-read'].map((name) => ({
    scenario: `resources-${name}`,
    revisions: both,
    expected: [`resources-${name}`, wire],
  })),
  ...['subscribe', 'unsubscribe'].map((name) => ({
    scenario: `resources-${name}`,
    revisions: legacyOnly,
    expected: [`resources-${name}`, wire],
    // A 2026-07-28 server has no resources/subscribe (subscriptions/listen replaced it): in front
    // of one the gateway offers a 2025 host no `resources.subscribe` (passThrough.ts), and refuses
    // a subscribe as a server without it does.
    notOffered: { modern: [`resources-${name}`] },
  })),
  { scenario: 'sep-2164-resource-not-found', revisions: modernOnly, expected: [wire] },
  ...['list', 'get-simple', 'get-with-args', 'get-embedded-resource', 'get-with-image'].map(
    (name) => ({
      scenario: `prompts-${name}`,
      revisions: both,
      expected: [`prompts-${name}`, wire],
    }),
  ),
  {
    scenario: 'dns-rebinding-protection',
    revisions: both,
    expected: ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
  },
  { scenario: 'caching', revisions: modernOnly, expected: [wire] },
  { scenario: 'http-header-validation', revisions: modernOnly, expected: [wire] },
  {
    scenario: 'http-custom-header-server-validation',
    revisions: modernOnly,
    expected: ['sep-2243-server-validate-param-match', 'sep-2243-server-reject-param-mismatch'],
  },
  ...(
    [
      ['basic-elicitation', 'sep-2322-elicitation-incomplete', 'sep-2322-elicitation-complete'],
      ['basic-sampling', 'sep-2322-sampling-incomplete', 'sep-2322-sampling-complete'],
      ['basic-list-roots', 'sep-2322-list-roots-incomplete', 'sep-2322-list-roots-complete'],
      ['request-state', 'sep-2322-request-state-incomplete', 'sep-2322-request-state-complete'],
      [
        'multiple-input-requests',
        'sep-2322-multiple-inputs-incomplete',
        'sep-2322-multiple-inputs-complete',
      ],
      [
        'multi-round',
        'sep-2322-multi-round-r1',
        'sep-2322-multi-round-r2',
        'sep-2322-multi-round-r3',
      ],
      ['missing-input-response', 'sep-2322-missing-response-rerequests'],
      ['result-type', 'sep-2322-result-type-included'],
      ['unsupported-methods', 'sep-2322-not-on-unsupported-requests'],
      ['tampered-state', 'sep-2322-reject-tampered-state'],
      ['ignore-extra-params', 'sep-2322-ignore-unexpected-params'],
      ['validate-input', 'sep-2322-validate-input-responses', 'sep-2322-error-on-protocol-error'],
    ] as const
  ).map(([name, ...expected]) => ({
    scenario: `input-required-result-${name}`,
    revisions: modernOnly,
    expected: [...expected, wire],
    ...(rekeyed[name] === undefined ? {} : { gatewayFailures: { legacy: rekeyed[name] } }),
  })),
];

/** Each scenario's checks in one whole-suite run, by scenario name. */
type Results = Map<string, Check[]>;

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Run the suite for `revision` against `url`; the 2026-07-28 run takes every scenario. */
async function runAgainst(url: string, revision: Revision): Promise<Results> {
  const output = await mkdtemp(join(tmpdir(), 'waitfor-gateway-conformance-'));
  cleanup.push(() => rm(output, { recursive: true, force: true }));
  const suite = revision === '2026-07-28' ? ['--suite', 'all'] : [];
  const args = ['server', '--url', url, '--spec-version', revision, ...suite, '-o', output];
  const result = await runSuite(...args);
  const results: Results = new Map();
  for (const directory of await readdir(output)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(directory)?.[1];
    if (scenario === undefined) continue;
    const { checks } = await readChecks(join(output, directory), expect, result.output);
    results.set(scenario, checks);
  }
  return results;
}

/** Ids and statuses, order kept: what "the same results" compares. */
const outcome = (checks: Check[]) => checks.map(({ id, status }) => `${id} ${status}`);

const upstreamEras: UpstreamEra[] = ['legacy', 'modern'];

describe.each(['2025-11-25', '2026-07-28'] as const)('a %s client', (revision) => {
  const selected = scenarios.filter((scenario) => scenario.revisions.includes(revision));
  let direct: Results;
  const through = new Map<string, Results>();

  beforeAll(async () => {
    const upstream: HttpEndpoint = await startEverythingServer();
    cleanup.push(() => upstream.close());
    const gateways = await Promise.all(
      upstreamEras.map(async (era) => {
        const gateway: Gateway = await createGateway({
          upstream: { url: upstream.url },
          era,
          log: () => undefined,
        });
        const endpoint = await serveHttp(gateway);
        cleanup.push(async () => {
          await endpoint.close();
          await gateway.close();
        });
        return [era, endpoint] as const;
      }),
    );
    // The three runs at once: each mostly waits on its target.
    const [directRun, ...gatewayRuns] = await Promise.all([
      runAgainst(upstream.url, revision),
      ...gateways.map(([, endpoint]) => runAgainst(endpoint.url, revision)),
    ]);
    direct = directRun!;
    gateways.forEach(([era], index) => through.set(era, gatewayRuns[index]!));
  }, 300_000);

  describe.each(selected)('$scenario', ({ scenario, gatewayFailures, ...expectation }) => {
    const judged = (results: Results, knownFailures = expectation.knownFailures) => {
      const found = results.get(scenario);
      expect(found, `${scenario} did not run`).toBeDefined();
      // A known check that only WARNs counts as failing, as the suite counts it (suite.ts).
      const checks = found!.map((check) =>
        knownFailures?.includes(check.id) && check.status === 'WARNING'
          ? { ...check, status: 'FAILURE' }
          : check,
      );
      const failed = checks.some((check) => check.status === 'FAILURE');
      const unlike = checks.filter((check) => check.status !== 'SUCCESS');
      const context = `${scenario}: ${JSON.stringify(unlike.map(({ id, status, errorMessage }) => ({ id, status, errorMessage })))}`;
      // One suite run covers every scenario; this scenario's own exit is whether it failed.
      const expected = expectation.expected.filter((id) => !knownFailures?.includes(id));
      const known = knownFailures?.filter((id) => checks.some((check) => check.id === id));
      judge(
        expect,
        checks,
        failed ? 1 : 0,
        { ...expectation, expected, knownFailures: known },
        context,
      );
      return checks;
    };

    test('passes directly', () => {
      judged(direct);
    });

    test.each(upstreamEras)('passes through the gateway (a %s upstream), same checks', (era) => {
      const absent = expectation.notOffered?.[era];
      if (absent !== undefined) {
        const checks = through.get(era)!.get(scenario) ?? [];
        for (const id of absent)
          expect(checks.find((check) => check.id === id)).toMatchObject({
            status: 'FAILURE',
            errorMessage: expect.stringMatching(/-32601|Method not found/),
          });
        return;
      }
      const known = gatewayFailures?.[era] ?? [];
      const checks = judged(through.get(era)!, known);
      // The same checks in the same order with the same statuses, the known ones aside.
      const same = (list: Check[]) => outcome(list.filter((check) => !known.includes(check.id)));
      expect(same(checks)).toEqual(same(direct.get(scenario)!));
    });
  });
});
