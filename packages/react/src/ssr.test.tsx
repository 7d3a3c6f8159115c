// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import { RequestList, WaitforProvider } from '@waitfor/react';
import { everythingElicitationSchema } from './__fixtures__/everythingElicitationSchema.js';

describe('server rendering', () => {
  it('renders every view kind to a string without a DOM, opening nothing', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const inbox = createInbox();
    void inbox.waitFor({
      id: 'form',
      kind: 'input',
      prompt: 'Please fill',
      expiresAt: new Date(Date.now() + 120_000).toISOString(),
      data: { schema: everythingElicitationSchema, origin: { server: 'everything' } },
    });
    void inbox.waitFor({
      id: 'auth',
      kind: 'authorization',
      prompt: 'Sign in',
      url: 'https://xn--80ak6aa92e.com/',
    });
    void inbox.waitFor({ id: 'ok', kind: 'approval', prompt: 'Deploy?' });
    const html = renderToString(
      <WaitforProvider inbox={inbox}>
        <RequestList />
      </WaitforProvider>,
    );
    expect(html).toContain('everything');
    expect(html).toContain('It was a dark and stormy night.');
    expect(html).toContain('Expires in');
    expect(html).toContain('https://xn--80ak6aa92e.com/');
    expect(html).toContain('punycode');
    expect(html).toContain('Unknown server');
    expect(html).toContain('Deploy?');
    expect(html).not.toContain('<a ');
  });
});
