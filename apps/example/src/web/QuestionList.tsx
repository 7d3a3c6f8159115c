import { memo, useEffect, useMemo, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import type { Request } from '@waitfor/core';
import {
  ArrivalAnnouncer,
  DepartedList,
  RequestBoundary,
  RequestView,
  serverLabel,
  useLocalization,
  useDepartedRequests,
  usePendingRequests,
  useRequest,
} from '@waitfor/react';
import { hostName } from '../hostTool/hostTools.js';
import { useOwnerName } from './CallLog.js';
import { callKey } from './callQuestions.js';
import { usePageText } from './locales/usePageText.js';

/**
 * One question, as react's RequestListItem shows it, with this app's own name in the page's
 * language ("This app" asks: the servers' names stay as they are).
 */
const QuestionItem = memo(function QuestionItem({ id }: { id: string }) {
  const request = useRequest(id);
  const ownName = useOwnerName()(hostName);
  const shown = useMemo(() => {
    const origin = request?.data?.origin;
    if (request === undefined || origin?.server !== hostName) return request;
    return { ...request, data: { ...request.data, origin: { ...origin, server: ownName } } };
  }, [request, ownName]);
  return shown === undefined ? null : <RequestView request={shown} />;
});

/** Props of QuestionList. */
export interface QuestionListProps {
  /** A tool's title by call key (server and tool), to name the call that asks. */
  titles: ReadonlyMap<string, string>;
  /** Servers whose connection is gone: their questions say they can no longer reach them. */
  gone: ReadonlySet<string>;
  /**
   * The call the person just started (Run or Retry): its first question takes focus and scrolls
   * into view. Read and cleared by the list.
   */
  startedRef: RefObject<string | undefined>;
  /** Shown when nothing is open. */
  empty: ReactNode;
}

interface Group {
  key: string;
  server: string;
  tool: string | undefined;
  requests: Request[];
}

const toolOf = (request: Request): string | undefined => {
  const origin = request.data?.origin;
  const tool = origin !== undefined && Object.hasOwn(origin, 'tool') ? origin.tool : undefined;
  return typeof tool === 'string' && tool !== '' ? tool : undefined;
};

/** The open questions grouped by the call that asked them, in the order the calls first asked. */
function groupByCall(requests: readonly Request[], unknownServer: string): Group[] {
  const groups = new Map<string, Group>();
  for (const request of requests) {
    const server = serverLabel(request, unknownServer);
    const tool = toolOf(request);
    const key = callKey(server, tool ?? '');
    const group = groups.get(key) ?? { key, server, tool, requests: [] };
    group.requests.push(request);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * Every open question, grouped by the call that asked it and captioned with its tool and server.
 * Like @waitfor/react's RequestList it announces new questions and, when the question holding
 * focus leaves, moves focus to the next one (else the previous, else the empty note). The first
 * question of a call the person just started takes focus and scrolls into view — on a phone the
 * list is far below the Run button.
 */
export function QuestionList({ titles, gone, startedRef, empty }: QuestionListProps) {
  const { text } = useLocalization();
  const say = usePageText();
  const ownerName = useOwnerName();
  const requests = usePendingRequests();
  const departed = useDepartedRequests();
  const root = useRef<HTMLDivElement>(null);
  const previous = useRef<readonly Request[] | undefined>(undefined);
  const focused = useRef<string | undefined>(undefined);
  const groups = groupByCall(requests, text('unknownServer'));

  useEffect(() => {
    const before = previous.current;
    previous.current = requests;
    if (before === undefined) return;
    const known = new Set(before.map((request) => request.id));
    const arrived = requests.filter((request) => !known.has(request.id));
    const prompt = (id: string) =>
      root.current?.querySelector<HTMLElement>(
        `[data-question="${CSS.escape(id)}"] .waitfor-prompt`,
      );
    const wanted = startedRef.current;
    const asked = arrived.find(
      (request) =>
        callKey(serverLabel(request, text('unknownServer')), toolOf(request) ?? '') === wanted,
    );
    if (asked !== undefined) {
      startedRef.current = undefined;
      // Only from where the person started it (Run, Retry) or nowhere: focus moved on stays put.
      const from = document.activeElement;
      const still = from === null || from === document.body || from.closest('[data-starts-call]');
      const target = still ? prompt(asked.id) : undefined;
      target?.focus({ preventScroll: true });
      target?.scrollIntoView({ block: 'center' });
      focused.current = asked.id;
      return;
    }
    const lost = focused.current;
    if (lost === undefined || requests.some((request) => request.id === lost)) return;
    focused.current = undefined;
    // Only focus that fell with the removed question: a person who moved on keeps their place.
    const active = document.activeElement;
    if (active !== null && active !== document.body && active.isConnected) return;
    const orderOf = (list: readonly Request[]) =>
      groupByCall(list, text('unknownServer')).flatMap((group) =>
        group.requests.map((request) => request.id),
      );
    const oldOrder = orderOf(before);
    const order = orderOf(requests);
    const index = Math.min(oldOrder.indexOf(lost), order.length - 1);
    const next = index < 0 ? undefined : order[index];
    const target =
      (next === undefined ? undefined : prompt(next)) ??
      root.current?.querySelector<HTMLElement>('.waitfor-empty');
    target?.focus();
  }, [requests, text, startedRef]);

  return (
    <div ref={root} className="waitfor-list">
      <ArrivalAnnouncer requests={requests} />
      {groups.length === 0 ? (
        <div className="waitfor-empty" tabIndex={-1}>
          {empty}
        </div>
      ) : (
        <ol className="call-groups" aria-label={say('groups')}>
          {groups.map((group) => (
            <li key={group.key} className="call-group" data-server={group.server}>
              <h3 className="call-group-title">
                {say('group', {
                  tool:
                    group.tool === undefined
                      ? say('unknownCall')
                      : (titles.get(group.key) ?? group.tool),
                  server: ownerName(group.server),
                })}
              </h3>
              {gone.has(group.server) ? (
                <p className="call-group-gone" role="status">
                  {say('groupGone', { server: group.server })}
                </p>
              ) : null}
              <ul className="waitfor-items">
                {group.requests.map((request) => (
                  <li
                    key={request.id}
                    className="waitfor-item"
                    data-question={request.id}
                    onFocus={() => {
                      focused.current = request.id;
                    }}
                  >
                    <RequestBoundary id={request.id} item={QuestionItem} />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {/* Answered elsewhere first (another page): said, not vanished, until dismissed. */}
      <DepartedList {...departed} />
    </div>
  );
}
