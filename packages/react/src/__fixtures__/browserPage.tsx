import { createRoot } from 'react-dom/client';
import { createInbox } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { RequestList, WaitforProvider } from '@waitfor/react';

// The entry of a small page built for Chromium: a RequestList over an inbox the test reaches
// through `window.waitforPage`, asking Requests and reading their Answers.

const inbox = createInbox();
const answers = new Map<string, Answer>();

Object.assign(window, {
  waitforPage: {
    ask(request: Request) {
      void inbox.waitFor(request).then((answer) => answers.set(answer.id, answer));
    },
    answer: (id: string) => answers.get(id),
  },
});

const root = document.getElementById('root');
if (root === null) throw new Error('The page has no #root.');
createRoot(root).render(
  <WaitforProvider inbox={inbox}>
    <RequestList />
  </WaitforProvider>,
);
