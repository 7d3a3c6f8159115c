'use client';
import { memo, useMemo } from 'react';
import type { ComponentType, ReactNode } from 'react';
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
  /** Shown when nothing is open. */
  empty?: ReactNode;
}

/**
 * Every open Request of the inbox, one item per id, oldest first. Each item has its own error
 * boundary: one that fails to render shows an error with Decline / Cancel, the others keep working.
 */
export function RequestList({
  item = RequestListItem,
  empty = <p>No open requests.</p>,
}: RequestListProps) {
  const requests = usePendingRequests();
  // Items are memoized by id so answering one Request re-renders only that one.
  const Item = useMemo(() => (item === RequestListItem ? item : memo(item)), [item]);
  if (requests.length === 0) return <>{empty}</>;
  return (
    <ul aria-label="Open requests">
      {requests.map((request) => (
        <li key={request.id}>
          <RequestBoundary id={request.id} item={Item} />
        </li>
      ))}
    </ul>
  );
}
