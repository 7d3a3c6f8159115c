'use client';
import { PureComponent } from 'react';
import type { ComponentType } from 'react';
import { RefuseButtons } from './ActionButton.js';
import { useLocalization } from './localization.js';
import { serverLabel } from './serverLabel.js';
import { ServerLine } from './RequestFrame.js';
import { useAnswer } from './useAnswer.js';
import { useRequest } from './useRequest.js';

/** Props of RequestBoundary: the Request's id and the component that shows it. */
export interface RequestBoundaryProps {
  id: string;
  /** The list's item component; rendered here so an unchanged item skips this boundary too. */
  item: ComponentType<{ id: string }>;
}

/**
 * What a person sees instead of a view that failed to render: who asks and what, and Decline /
 * Cancel built only from the inbox, so the question can still be answered and does not hang.
 */
function BrokenRequest({ id }: { id: string }) {
  const request = useRequest(id);
  const answers = useAnswer();
  const { text } = useLocalization();
  if (request === undefined) return null;
  // Built apart from RequestFrame on purpose: if the frame is what failed, this must not fail too.
  const server = serverLabel(request, text('unknownServer'));
  return (
    <section
      className="waitfor-request waitfor-broken"
      aria-label={text('region', { server, prompt: request.prompt })}
      data-waitfor-kind={request.kind}
    >
      <ServerLine server={server} />
      {/* Focusable by script only, like a view's prompt heading: the list may move focus here. */}
      <p className="waitfor-prompt" tabIndex={-1}>
        {request.prompt}
      </p>
      <p role="alert" className="waitfor-error">
        {text('broken')}
      </p>
      <div className="waitfor-actions">
        <RefuseButtons request={request} settle={answers.answer} />
      </div>
    </section>
  );
}

/**
 * One list item behind its own error boundary: a view that throws (a hostile schema, a bug in a
 * custom item) replaces only its own question with BrokenRequest, never the whole list.
 */
export class RequestBoundary extends PureComponent<RequestBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    const { id, item: Item } = this.props;
    return this.state.failed ? <BrokenRequest id={id} /> : <Item id={id} />;
  }
}
