/**
 * The example's own servers behind the gateway — the 2025 Travel Desk (v1 SDK server, pushes
 * `elicitation/create`) and the 2026-07-28 Deploy Console (v2 SDK server, `input_required` in two
 * rounds, its requestState signed) — each asked by a v1 host (2025 only) and a v2 host pinned to
 * 2026-07-28, over Streamable HTTP on both sides. What the person answers reaches the server: the
 * tool's result repeats it; a decline reaches it too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDeployConsole } from '../../../apps/example/src/servers/deployConsole';
import { createSignInDesk } from '../../../apps/example/src/servers/signInDesk';
import { startTravelDesk, type RunningServer } from '../../../apps/example/src/servers/travelDesk';
import { openHost, textOf, type HostKind, type Person } from './__fixtures__/hosts';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

interface Fronted {
  server: RunningServer;
  gateway: Gateway;
  endpoint: HttpEndpoint;
}

const started: Fronted[] = [];
async function front(server: RunningServer, era: 'legacy' | 'modern'): Promise<Fronted> {
  const gateway = await createGateway({
    upstream: { url: server.mcpUrl },
    era,
    log: () => undefined,
  });
  const fronted = { server, gateway, endpoint: await serveHttp(gateway) };
  started.push(fronted);
  return fronted;
}

let travel: Fronted;
let deploy: Fronted;
const signIns = createSignInDesk();
beforeAll(async () => {
  travel = await front(await startTravelDesk({ signIns }), 'legacy');
  deploy = await front(await startDeployConsole(), 'modern');
});
afterAll(async () => {
  for (const { endpoint, gateway, server } of started.splice(0)) {
    await endpoint.close();
    await gateway.close();
    await server.close();
  }
});

/** A person who fills each form by its message, and records what was asked. */
const filling =
  (answers: Record<string, Record<string, unknown>>): Person =>
  async (params) => {
    const message = String(params['message']);
    const match = Object.keys(answers).find((start) => message.startsWith(start));
    if (match === undefined) return { action: 'decline' };
    return { action: 'accept', content: answers[match] as Record<string, unknown> };
  };

const trip = {
  destination: 'kyoto',
  departure: '2027-04-02',
  nights: 6,
  cabin: 'premium',
  extras: ['bag'],
  email: 'ada@example.com',
  insurance: true,
};

const plan = {
  'Where should': { environment: 'production', region: 'eu-west-1', replicas: 3 },
  'How should': { version: '2.0.1', strategy: 'canary', notify: ['#on-call'] },
  'Deploy ': { confirm: true },
};

const hosts: HostKind[] = ['v1', 'v2-modern'];

describe.each(hosts)('%s host', (kind) => {
  test('Travel Desk (2025): the pushed form is answered and the booking repeats it', async () => {
    const host = await openHost(kind, { url: travel.endpoint.url }, filling({ Where: trip }));
    try {
      const result = await host.callTool('book_trip', {});
      expect(host.asked).toHaveLength(1);
      expect(host.asked[0]).toMatchObject({ message: 'Where and when would you like to travel?' });
      expect(textOf(result)).toMatch(
        /^Booked 6 nights in Kyoto, Japan from 2027-04-02, premium cabin with checked bag, insured\. Itinerary sent to ada@example\.com\./,
      );
    } finally {
      await host.close();
    }
  });

  test('Travel Desk (2025): a decline reaches the server', async () => {
    const host = await openHost(kind, { url: travel.endpoint.url }, filling({}));
    try {
      expect(textOf(await host.callTool('book_trip', {}))).toBe(
        'Booking declined: nothing was reserved.',
      );
    } finally {
      await host.close();
    }
  });

  test('Travel Desk (2025): a URL question — the person signs in on the page the link names', async () => {
    const person: Person = async (params) => {
      const id = /\/signin\/([^/?#]+)/.exec(String(params['url']))?.[1];
      expect(signIns.complete(String(id), 'ada')).toBe(true);
      return { action: 'accept' };
    };
    const host = await openHost(kind, { url: travel.endpoint.url }, person);
    try {
      const result = await host.callTool('link_account', { airline: 'Avios' });
      expect(host.asked).toEqual([
        expect.objectContaining({
          mode: 'url',
          message: 'Sign in to Avios so Travel Desk can link your loyalty account.',
        }),
      ]);
      expect(textOf(result)).toBe('Linked Avios account ada to your Travel Desk profile.');
      // A 2025 host is told the sign-in finished, as the server said it.
      if (kind === 'v1')
        await expect.poll(() => host.notified).toContain('notifications/elicitation/complete');
    } finally {
      await host.close();
    }
  });

  test('Deploy Console (2026-07-28): two rounds of three forms, the deployment repeats them', async () => {
    const host = await openHost(kind, { url: deploy.endpoint.url }, filling(plan));
    try {
      const result = await host.callTool('deploy_service', { service: 'search-api' });
      expect(host.asked.map((params) => String(params['message']).split(' ')[0])).toEqual(
        expect.arrayContaining(['Where', 'How', 'Deploy']),
      );
      expect(host.asked).toHaveLength(3);
      expect(textOf(result)).toMatch(
        /^Deployed search-api 2\.0\.1 to production \(eu-west-1, 3 replicas, canary\) as release r-\w+\. Notified #on-call\.$/,
      );
    } finally {
      await host.close();
    }
  });

  test('Deploy Console (2026-07-28): a declined confirmation calls the deployment off', async () => {
    const { 'Deploy ': _confirm, ...firstRound } = plan;
    const host = await openHost(kind, { url: deploy.endpoint.url }, filling(firstRound));
    try {
      expect(textOf(await host.callTool('deploy_service', { service: 'search-api' }))).toBe(
        'Deployment of search-api was called off.',
      );
    } finally {
      await host.close();
    }
  });
});
