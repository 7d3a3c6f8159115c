import { act, cleanup, render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createInbox } from '@waitfor/core';
import type { Answer, Inbox, Request } from '@waitfor/core';
import { WaitforProvider } from '@waitfor/react';
import type { WaitforProviderProps } from '@waitfor/react';
import { afterEach } from 'vitest';

// Without vitest globals Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

/** Renders UI under a provider of a fresh (or given) inbox, with the given provider settings. */
export function renderWithInbox(
  ui: ReactNode,
  inbox: Inbox = createInbox(),
  settings: Omit<WaitforProviderProps, 'inbox' | 'children'> = {},
): RenderResult & { inbox: Inbox } {
  const result = render(
    <WaitforProvider inbox={inbox} {...settings}>
      {ui}
    </WaitforProvider>,
  );
  return { ...result, inbox };
}

/** Puts a Request into the inbox (inside act) and returns the promise of its Answer. */
export function ask(
  inbox: Inbox,
  request: Request,
  context?: { signal?: AbortSignal },
): Promise<Answer> {
  let answer!: Promise<Answer>;
  act(() => {
    answer = inbox.waitFor(request, context);
  });
  return answer;
}

/** A Request from a named server. */
export function requestFrom(
  server: string,
  request: Omit<Request, 'data'> & { data?: Request['data'] },
): Request {
  return { ...request, data: { ...request.data, origin: { server } } };
}
