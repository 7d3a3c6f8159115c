'use client';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { ComponentType, ReactNode } from 'react';
import type { Request } from '@waitfor/core';
import { AnsweredElsewhere } from './AnsweredElsewhere.js';
import { ArrivalAnnouncer } from './ArrivalAnnouncer.js';
import { classNames } from './classNames.js';
import { useDepartedRequests } from './departedRequests.js';
import { useLocalization } from './localization.js';
import { RequestBoundary } from './RequestBoundary.js';
import { RequestView } from './RequestView.js';
import { usePendingRequests } from './usePendingRequests.js';
import { useRequest } from './useRequest.js';

/** Props of one list item: the id of the Request it shows. */
export interface RequestListItemProps {
  id: string;
}

/** The default list item: reads its own Request by id, so it re-renders only when that one changes. */
export const RequestListItem = memo(function RequestListItem({ id }: RequestListItemProps) {
  const request = useRequest(id);
  return request === undefined ? null : <RequestView request={request} />;
});

/** Props of RequestList. */
export interface RequestListProps {
  /** The component for each Request (memoized by the list); RequestListItem unless told. */
  item?: ComponentType<RequestListItemProps>;
  /** Shown when nothing is open; "No open requests." unless told. */
  empty?: ReactNode;
  className?: string;
}

/**
 * Every open Request of the inbox, one item per id, oldest first. Each item has its own error
 * boundary: one that fails to render shows an error with Decline / Cancel, the others keep working.
 * A polite live region announces each question that arrives (and who asks). When the question
 * that held keyboard focus leaves the list (answered, or settled elsewhere), focus moves to the
 * prompt of the question that took its place (else the one before it), or to the empty note.
 * A question whose answer from this page lost to one given elsewhere says so ("Answered
 * elsewhere", by whom where the host says) below the list until dismissed.
 */
export function RequestList({ item = RequestListItem, empty, className }: RequestListProps) {
  const { text } = useLocalization();
  const requests = usePendingRequests();
  const { departed, dismiss } = useDepartedRequests();
  // Items are memoized by id so answering one Request re-renders only that one.
  const Item = useMemo(() => (item === RequestListItem ? item : memo(item)), [item]);
  const root = useRef<HTMLDivElement>(null);
  const previous = useRef<readonly Request[] | undefined>(undefined);
  const focused = useRef<string | undefined>(undefined);

  useEffect(() => {
    const before = previous.current;
    previous.current = requests;
    // The first render: nothing was focused in a list that was not there.
    if (before === undefined) return;
    const gone = focused.current;
    if (gone === undefined || requests.some((request) => request.id === gone)) return;
    focused.current = undefined;
    // Only focus that fell with the removed question: a person who moved on keeps their place.
    const active = document.activeElement;
    if (active !== null && active !== document.body && active.isConnected) return;
    const index = Math.min(
      before.findIndex((request) => request.id === gone),
      requests.length - 1,
    );
    const next = index < 0 ? undefined : root.current?.querySelectorAll('.waitfor-item')[index];
    // The prompt heading comes first in every built-in view; a custom item gets its first control.
    const target =
      next?.querySelector<HTMLElement>('.waitfor-prompt, button, input, select, textarea') ??
      root.current?.querySelector<HTMLElement>('.waitfor-empty');
    target?.focus();
  }, [requests]);

  return (
    <div ref={root} className={classNames('waitfor-list', className)}>
      <ArrivalAnnouncer requests={requests} />
      {requests.length === 0 ? (
        <div className="waitfor-empty" tabIndex={-1}>
          {empty ?? <p>{text('empty')}</p>}
        </div>
      ) : (
        <ul className="waitfor-items" aria-label={text('list')}>
          {requests.map((request) => (
            <li
              key={request.id}
              className="waitfor-item"
              onFocus={() => {
                focused.current = request.id;
              }}
            >
              <RequestBoundary id={request.id} item={Item} />
            </li>
          ))}
        </ul>
      )}
      <DepartedList departed={departed} dismiss={dismiss} />
    </div>
  );
}

/** The notes of questions answered elsewhere first (see useDepartedRequests). */
export function DepartedList({ departed, dismiss }: ReturnType<typeof useDepartedRequests>) {
  if (departed.length === 0) return null;
  return (
    <ul className="waitfor-departed-items">
      {departed.map((request) => (
        <li key={request.id} className="waitfor-departed-item">
          <AnsweredElsewhere request={request} onDismiss={() => dismiss(request.id)} />
        </li>
      ))}
    </ul>
  );
}
