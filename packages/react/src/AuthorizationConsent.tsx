'use client';
import { useId } from 'react';
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { ActionButton, RefuseButtons } from './ActionButton.js';
import { describeUrl } from './describeUrl.js';
import { useLocalization } from './localization.js';
import { RequestFrame } from './RequestFrame.js';
import { useRequestView } from './useRequestView.js';

/** Props of AuthorizationConsent. */
export interface AuthorizationConsentProps {
  /** A `kind:"authorization"` Request whose `url` the person may open. */
  request: Request;
  /** Opens the URL; a new tab without opener or referrer unless told (inject it in tests). */
  open?: (url: string) => void;
  className?: string;
}

function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * Asks consent before a person visits a URL: the full URL as text with its host highlighted,
 * warnings for look-alike hosts, only http/https openable, nothing opened or fetched before a click,
 * and nothing opened unless the consent settled the Request.
 */
export function AuthorizationConsent({
  request,
  open = openInNewTab,
  className,
}: AuthorizationConsentProps) {
  const view = useRequestView(request);
  const { text } = useLocalization();
  const url = describeUrl(request.url, text);
  const id = useId();
  const notes = [...url.warnings, ...(url.problem ? [url.problem] : [])];
  // A port that is not the scheme's default tells apart two sites on one host (127.0.0.1:5199 vs :5200).
  const port = url.port === undefined ? '' : `:${url.port}`;

  return (
    <RequestFrame request={request} status={view.status} className={className} settle={view.settle}>
      <div className="waitfor-consent">
        <p>{text('willOpen')}</p>
        {/* Text, never a link: nothing may load or be clicked before the person consents. */}
        <p>
          <code className="waitfor-url" data-waitfor-url="">
            {url.text}
          </code>
        </p>
        {url.host ? (
          <p className="waitfor-site">
            {text('site')}{' '}
            <strong className="waitfor-host" data-waitfor-host="">
              {url.host}
            </strong>
            {port ? (
              <span className="waitfor-port" data-waitfor-port="">
                {port}
              </span>
            ) : null}
          </p>
        ) : null}
        {notes.length > 0 ? (
          // The alert wraps the list: a <ul> given role="alert" would stop being a list.
          <div id={`${id}-notes`} className="waitfor-warnings" role="alert">
            <ul>
              {notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="waitfor-actions">
          <ActionButton
            request={request}
            action="open"
            label={
              url.host === undefined ? text('openLink') : text('open', { site: url.host + port })
            }
            disabled={!url.openable}
            aria-describedby={notes.length > 0 ? `${id}-notes` : undefined}
            onClick={() => {
              // Open only a consent that was delivered: the Request may have expired or been
              // answered elsewhere since this render, and then nobody waits for the visit.
              if (url.openable && view.settle(accept(request))) open(url.text);
            }}
          />
          <RefuseButtons request={request} settle={view.settle} />
        </div>
      </div>
    </RequestFrame>
  );
}
