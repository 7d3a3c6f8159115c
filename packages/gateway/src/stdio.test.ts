/**
 * The command over stdio, as a host's configuration runs it: `waitfor-gateway [--era …] --
 * <upstream command>`, spawned by a v1 host (2025 only) and a v2 host pinned to 2026-07-28, in
 * front of the dual-era fixture (stdio, pinned to either era) and the reference server
 * `@modelcontextprotocol/server-everything` (v1 SDK: legacy era). Form and URL questions,
 * declines, progress and the upstream's own elicitationId toward a legacy host.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  childTsconfig,
  gatewayBin,
  openHost,
  textOf,
  tsxBinary,
  type HostKind,
  type Person,
} from './__fixtures__/hosts';

const require = createRequire(import.meta.url);
const everythingBin = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const dualEraStdio = fileURLToPath(
  new URL('../../mcp-bridge/src/__fixtures__/dualEraServerStdio.ts', import.meta.url),
);

const gatewayCommand = (flags: string[], upstream: string[]) => ({
  command: tsxBinary,
  args: ['--tsconfig', childTsconfig, gatewayBin, ...flags, '--', ...upstream],
});

async function withHost(
  kind: HostKind,
  flags: string[],
  upstream: string[],
  person: Person,
  body: (host: Awaited<ReturnType<typeof openHost>>) => Promise<void>,
) {
  const host = await openHost(kind, gatewayCommand(flags, upstream), person);
  try {
    await body(host);
  } finally {
    await host.close();
  }
}

/** The answer of server-everything ("Raw result: {...}"). */
const rawResult = (result: unknown) => {
  const texts = ((result as { content?: Array<{ text?: string }> }).content ?? []).map(
    (block) => block.text ?? '',
  );
  const raw = texts.find((text) => text.includes('Raw result:')) ?? '';
  return JSON.parse(raw.slice(raw.indexOf('Raw result:') + 'Raw result:'.length)) as {
    action: string;
    content?: Record<string, unknown>;
  };
};

/** A form filled as a person would: every default shown, the rest typed in. */
const filled = (params: Record<string, unknown>, typed: Record<string, unknown>) => {
  const schema = params['requestedSchema'] as { properties: Record<string, { default?: unknown }> };
  const defaults = Object.entries(schema.properties).flatMap(([key, field]) =>
    field.default === undefined ? [] : [[key, field.default]],
  );
  return { ...Object.fromEntries(defaults), ...typed };
};

describe.each(['v1', 'v2-modern'] as const)('host %s over stdio', (kind) => {
  test.each(['legacy', 'modern'])(
    'the dual-era fixture pinned %s: a form and a URL question, and progress',
    async (era) => {
      let step = 0;
      await withHost(
        kind,
        ['--era', era],
        [tsxBinary, dualEraStdio],
        async (params) =>
          params['mode'] === 'url'
            ? { action: 'accept' }
            : { action: 'accept', content: { name: `Ada${++step}` } },
        async (host) => {
          expect(textOf(await host.callTool('ask_form'))).toBe('accept:{"name":"Ada1"}');
          expect(textOf(await host.callTool('ask_url'))).toBe('accept');
          const progress: unknown[] = [];
          const result = await host.callTool(
            'progress',
            { steps: 3, ms: 20 },
            { onprogress: (update) => progress.push(update) },
          );
          expect(textOf(result)).toBe('progressed 3');
          // In order, toward the host's own token. The upstream sends its last step right before
          // its answer; the upstream client may deliver that one after the answer and drop it (seen
          // with ms: 0), so what is checked is an in-order, non-empty prefix.
          expect(progress.length).toBeGreaterThan(0);
          expect(progress).toEqual(
            [1, 2, 3].slice(0, progress.length).map((value) => ({ progress: value, total: 3 })),
          );
        },
      );
    },
  );

  test("a 2025 server's completion notification reaches a 2025 host, never a 2026-07-28 one", async () => {
    await withHost(
      kind,
      ['--era', 'legacy'],
      [tsxBinary, dualEraStdio],
      async () => ({ action: 'cancel' }),
      async (host) => {
        const result = await host.callTool('notify_complete', { elicitationId: 'e-1' });
        expect(textOf(result)).toBe('sent');
        // Relayed as it arrived, before the call's result on the same stream; the SDK's server
        // sends a 2026-07-28 host (whose revision has no such notification) none.
        expect(host.notified.includes('notifications/elicitation/complete')).toBe(kind === 'v1');
      },
    );
  });

  test('server-everything: its form answered, its URL asked with its own elicitationId, a decline sent', async () => {
    let round = 0;
    await withHost(
      kind,
      [],
      [process.execPath, everythingBin, 'stdio'],
      async (params) => {
        round += 1;
        if (params['mode'] === 'url') return { action: 'accept' };
        if (round > 1) return { action: 'decline' };
        return {
          action: 'accept',
          content: filled(params, {
            name: 'Ada Lovelace',
            check: true,
            email: 'ada@example.com',
            homepage: 'https://example.com/ada',
            birthdate: '1815-12-10',
            integer: 7,
          }),
        };
      },
      async (host) => {
        const form = rawResult(await host.callTool('trigger-elicitation-request'));
        expect(form.action).toBe('accept');
        expect(form.content).toMatchObject({ name: 'Ada Lovelace', integer: 7, check: true });
        const url = await host.callTool('trigger-url-elicitation', {
          url: 'https://example.com/consent',
          elicitationId: 'eid-42',
        });
        expect(JSON.stringify(url)).toMatch(/accept/);
        const asked = host.asked.find((params) => params['mode'] === 'url');
        expect(asked).toMatchObject({ url: 'https://example.com/consent' });
        // The upstream's own elicitationId reaches a legacy host unchanged; a modern host gets none.
        expect(asked?.['elicitationId']).toBe(kind === 'v1' ? 'eid-42' : undefined);
        const declined = rawResult(await host.callTool('trigger-elicitation-request'));
        expect(declined).toEqual({ action: 'decline' });
      },
    );
  });
});
