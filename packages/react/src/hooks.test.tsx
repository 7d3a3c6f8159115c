import { act, render, renderHook, screen } from '@testing-library/react';
import { memo, version as reactVersion } from 'react';
import { version as reactDomVersion } from 'react-dom';
import { describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import type { Inbox } from '@waitfor/core';
import {
  WaitforProvider,
  WaitforReactError,
  useAnswer,
  usePendingRequests,
  useRequest,
} from '@waitfor/react';
import { ask } from './__tests__/harness.js';

function wrapperFor(inbox: Inbox) {
  return ({ children }: { children?: React.ReactNode }) => (
    <WaitforProvider inbox={inbox}>{children}</WaitforProvider>
  );
}

describe('hooks over the inbox', () => {
  it('runs against one React: react and react-dom agree (18 or 19 per vitest project)', () => {
    expect(reactDomVersion).toBe(reactVersion);
    expect(['18', '19']).toContain(reactVersion.split('.')[0]);
  });

  it('usePendingRequests lists open Requests and drops settled ones', async () => {
    const inbox = createInbox();
    const { result } = renderHook(() => usePendingRequests(), { wrapper: wrapperFor(inbox) });
    expect(result.current).toEqual([]);
    const first = ask(inbox, { id: 'a', kind: 'question', prompt: 'A?' });
    ask(inbox, { id: 'b', kind: 'question', prompt: 'B?' });
    expect(result.current.map((request) => request.id)).toEqual(['a', 'b']);
    const before = result.current;
    act(() => {
      inbox.answer({ id: 'a', ok: true });
    });
    expect(result.current.map((request) => request.id)).toEqual(['b']);
    expect(result.current).not.toBe(before);
    await expect(first).resolves.toEqual({ id: 'a', ok: true });
  });

  it('useAnswer settles with accept, decline and cancel, first answer wins', async () => {
    const inbox = createInbox();
    const { result } = renderHook(() => useAnswer(), { wrapper: wrapperFor(inbox) });
    const answers = result.current;
    const yes = ask(inbox, { id: 'yes', kind: 'approval', prompt: 'Yes?' });
    const no = ask(inbox, { id: 'no', kind: 'approval', prompt: 'No?' });
    const gone = ask(inbox, { id: 'gone', kind: 'approval', prompt: 'Gone?' });
    let settled: boolean[] = [];
    act(() => {
      settled = [
        answers.accept('yes', { note: 'fine' }),
        answers.decline('no'),
        answers.cancel({ id: 'gone', kind: 'approval', prompt: 'Gone?' }),
        answers.decline('yes'),
      ];
    });
    expect(settled).toEqual([true, true, true, false]);
    await expect(yes).resolves.toEqual({ id: 'yes', ok: true, data: { note: 'fine' } });
    await expect(no).resolves.toMatchObject({ id: 'no', ok: false, reason: 'declined' });
    await expect(gone).resolves.toMatchObject({ id: 'gone', ok: false, reason: 'cancelled' });
    // The functions are stable for one inbox, so they can be effect dependencies.
    expect(result.current).toBe(answers);
  });

  it('useRequest follows one id: open, then undefined once settled elsewhere', () => {
    const inbox = createInbox();
    const { result } = renderHook(() => useRequest('x'), { wrapper: wrapperFor(inbox) });
    expect(result.current).toBeUndefined();
    ask(inbox, { id: 'x', kind: 'question', prompt: 'X?' });
    expect(result.current).toMatchObject({ id: 'x', prompt: 'X?' });
    act(() => {
      inbox.cancel('x');
    });
    expect(result.current).toBeUndefined();
  });

  it('a hook outside a provider throws a missing_provider error', () => {
    let thrown: unknown;
    function Probe() {
      try {
        usePendingRequests();
      } catch (error) {
        thrown = error;
      }
      return null;
    }
    render(<Probe />);
    expect(WaitforReactError.isInstance(thrown)).toBe(true);
    expect((thrown as WaitforReactError).code).toBe('missing_provider');
  });

  it('with 1,000 open Requests, answering one re-renders only the component reading it', () => {
    const inbox = createInbox();
    const ids = Array.from({ length: 1000 }, (_, index) => `r${index}`);
    const renders = new Map<string, number>();
    const Item = memo(function Item({ id }: { id: string }) {
      const request = useRequest(id);
      renders.set(id, (renders.get(id) ?? 0) + 1);
      return request ? <p>{request.prompt}</p> : null;
    });
    function List() {
      return (
        <>
          {usePendingRequests().map((request) => (
            <Item key={request.id} id={request.id} />
          ))}
        </>
      );
    }
    for (const id of ids) void inbox.waitFor({ id, kind: 'question', prompt: `Question ${id}` });
    render(
      <WaitforProvider inbox={inbox}>
        <List />
      </WaitforProvider>,
    );
    expect(screen.getAllByText(/^Question r/)).toHaveLength(1000);
    expect(new Set(renders.values())).toEqual(new Set([1]));

    act(() => {
      inbox.answer({ id: 'r500', ok: true });
    });

    expect(screen.getAllByText(/^Question r/)).toHaveLength(999);
    expect(screen.queryByText('Question r500')).toBeNull();
    // The answered one is unmounted (its own update and the list's land in one render); no other
    // item renders again.
    expect(ids.filter((id) => id !== 'r500' && renders.get(id) !== 1)).toEqual([]);
    expect(renders.get('r500')).toBeLessThanOrEqual(2);
  }, 30_000);
});
