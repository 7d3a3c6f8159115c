'use client';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Request } from '@waitfor/core';
import { useInboxConnection } from './answerFailure.js';
import { useLocalization } from './localization.js';
import { serverLabel } from './serverLabel.js';

/** Props of ArrivalAnnouncer. */
export interface ArrivalAnnouncerProps {
  /** The open Requests as the list shows them (e.g. `usePendingRequests()`). */
  requests: readonly Request[];
}

// Visually hidden, still read: the announcer is for screen readers; sighted people see the list.
const hidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A polite live region (visually hidden) that announces each Request arriving in `requests`, and
 * who asks; several at once are announced as a count. What is there on the first render is not
 * news, nor what an inbox whose questions live elsewhere (a remote inbox) delivers when it first
 * connects (after a reload, say); an announcement is taken back once its questions are answered.
 * `RequestList` renders one; a list of its own (grouped, say) renders one too.
 */
export function ArrivalAnnouncer({ requests }: ArrivalAnnouncerProps) {
  const { text } = useLocalization();
  const connection = useInboxConnection();
  const previous = useRef<readonly Request[] | undefined>(undefined);
  const loaded = useRef(false);
  const [news, setNews] = useState({ text: '', count: 0, ids: [] as readonly string[] });

  useEffect(() => {
    const before = previous.current;
    previous.current = requests;
    // The list the inbox holds when it is first connected is where the person starts, not news.
    if (!loaded.current) {
      loaded.current = connection === 'connected';
      return;
    }
    if (before === undefined) return;
    const known = new Set(before.map((request) => request.id));
    const arrived = requests.filter((request) => !known.has(request.id));
    const [first] = arrived;
    if (first === undefined) return;
    setNews(({ count }) => ({
      // A new node each time (keyed by count): the same words twice, e.g. a re-ask, are read again.
      count: count + 1,
      ids: arrived.map((request) => request.id),
      text:
        arrived.length > 1
          ? text('arrivedMany', { count: arrived.length })
          : text('arrived', {
              server: serverLabel(first, text('unknownServer')),
              prompt: first.prompt,
            }),
    }));
  }, [requests, text, connection]);

  // Answered (here or elsewhere): the announcement no longer stands, so it is taken back.
  const open = useMemo(() => new Set(requests.map((request) => request.id)), [requests]);
  const stands = news.ids.some((id) => open.has(id));
  return (
    <div className="waitfor-announcer" role="status" aria-live="polite" style={hidden}>
      {news.text && stands ? <span key={news.count}>{news.text}</span> : null}
    </div>
  );
}
