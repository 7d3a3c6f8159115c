/**
 * Benchmark 5 — React. 1,000 open Requests in an inbox, listed with @waitfor/react's
 * `WaitforProvider` + `RequestList` (each item reads its own Request with `useRequest`), rendered
 * into jsdom by React's production profiling build. Answering one Request should commit once and
 * re-render no remaining item: a `<Profiler>` around the list counts commits, one around every
 * item counts item renders. The time to answer one runs from `inbox.answer()` to the commit.
 */
import { Profiler, type ProfilerOnRenderCallback } from 'react';
import { accept, createInbox, type Inbox, type Request } from '@waitfor/core';
import {
  RequestList,
  RequestListItem,
  WaitforProvider,
  type RequestListItemProps,
} from '@waitfor/react';
import { installDomGlobals } from './domGlobals';
import { collectGarbage, median, now, sleep } from './stats';
import type { BenchResult } from './result';

/** Open Requests in the list. */
export const OPEN = 1_000;
/** Fresh mounts; answers timed per mount. */
export const MOUNTS = 5;
export const ANSWERS_PER_MOUNT = 3;

type CreateRoot = (container: Element) => {
  render(node: unknown): void;
  unmount(): void;
};

/** Counters the Profilers write into. */
const counts = { commits: 0, itemRenders: 0, lastCommit: 0 };
let onCommit: (() => void) | undefined;

const onList: ProfilerOnRenderCallback = () => {
  counts.commits++;
  counts.lastCommit = now();
  onCommit?.();
};
const onItem: ProfilerOnRenderCallback = () => {
  counts.itemRenders++;
};

/** The list item with a Profiler around it (RequestList memoizes it per id). */
function ProfiledItem({ id }: RequestListItemProps) {
  return (
    <Profiler id="item" onRender={onItem}>
      <RequestListItem id={id} />
    </Profiler>
  );
}

function App({ inbox }: { inbox: Inbox }) {
  return (
    <Profiler id="list" onRender={onList}>
      <WaitforProvider inbox={inbox}>
        <RequestList item={ProfiledItem} />
      </WaitforProvider>
    </Profiler>
  );
}

const nextCommit = () => new Promise<void>((resolve) => (onCommit = resolve));

function openRequests(inbox: Inbox, mount: number): Request[] {
  const asked: Request[] = Array.from({ length: OPEN }, (_, index) => ({
    id: `m${mount}-${index}`,
    kind: 'input',
    prompt: `Question ${index}`,
    data: {
      schema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Confirm' } },
        required: ['confirm'],
      },
      origin: { server: 'bench' },
    },
  }));
  for (const request of asked) void inbox.waitFor(request);
  return asked;
}

/** Run benchmark 5. */
export async function benchReactList(): Promise<BenchResult> {
  installDomGlobals();
  // The profiling build keeps <Profiler> callbacks in production mode; the runner sets NODE_ENV.
  const profiling = 'react-dom/profiling';
  const { createRoot } = (await import(profiling)) as { createRoot: CreateRoot };
  const container = document.getElementById('root')!;
  const mounts: number[] = [];
  const answers: number[] = [];
  const itemRenders: number[] = [];
  const commits: number[] = [];
  for (let mount = 0; mount < MOUNTS; mount++) {
    collectGarbage();
    const inbox = createInbox();
    const asked = openRequests(inbox, mount);
    const root = createRoot(container);
    const mounted = nextCommit();
    const start = now();
    root.render(<App inbox={inbox} />);
    await mounted;
    mounts.push(counts.lastCommit - start);
    if (container.querySelectorAll('form').length !== OPEN) throw new Error('Not every form shown');
    await sleep(20);
    for (let index = 0; index < ANSWERS_PER_MOUNT; index++) {
      const id = asked[Math.floor(((index + 0.5) * OPEN) / ANSWERS_PER_MOUNT)]!.id;
      counts.commits = 0;
      counts.itemRenders = 0;
      const committed = nextCommit();
      const begin = now();
      if (!inbox.answer(accept(id, { confirm: true }))) throw new Error(`${id} was not open`);
      await committed;
      answers.push(counts.lastCommit - begin);
      // Let any follow-up work (passive effects, a second commit) land before counting.
      await sleep(20);
      commits.push(counts.commits);
      itemRenders.push(counts.itemRenders);
    }
    const left = container.querySelectorAll('form').length;
    if (left !== OPEN - ANSWERS_PER_MOUNT)
      throw new Error(`Expected ${OPEN - ANSWERS_PER_MOUNT} forms, saw ${left}`);
    root.unmount();
  }
  const production = process.env['NODE_ENV'] === 'production';
  const runs = MOUNTS * ANSWERS_PER_MOUNT;
  return {
    id: 'react',
    title: '5. React list (@waitfor/react)',
    method:
      `${OPEN.toLocaleString('en-US')} open kind:"input" Requests in RequestList (one-field forms), ` +
      `${MOUNTS} fresh mounts × ${ANSWERS_PER_MOUNT} answers, react-dom/profiling ` +
      `${production ? 'production' : 'DEVELOPMENT'} build in jsdom.`,
    figures: [
      {
        name: 'renders per answer: commits of the list',
        value: median(commits),
        unit: 'count',
        runs,
      },
      {
        name: `renders per answer: items re-rendered (of ${OPEN - 1} left)`,
        value: median(itemRenders),
        unit: 'count',
        runs,
      },
      { name: 'answer one → committed', value: median(answers), unit: 'ms', runs },
      {
        name: `first mount of ${OPEN.toLocaleString('en-US')}`,
        value: median(mounts),
        unit: 'ms',
        runs: MOUNTS,
      },
    ],
    notes: production ? [] : ['React ran in development mode: timings are not representative.'],
  };
}
