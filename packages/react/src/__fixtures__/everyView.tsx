import { createInbox } from '@waitfor/core';
import type { Inbox, Request } from '@waitfor/core';
import { useState } from 'react';
import {
  AnsweredElsewhere,
  ApprovalView,
  CallProgress,
  ConnectionStatus,
  Countdown,
  RequestList,
  RequestListItem,
  WaitforProvider,
} from '@waitfor/react';
import type { RequestListItemProps, WaitforProviderProps } from '@waitfor/react';

// Data in German, so a test can tell the server's words from react's own English texts.
const origin = { server: 'Reisebüro' };
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const schema = {
  type: 'object',
  required: ['region', 'tage', 'kanaele'],
  properties: {
    region: { type: 'string', title: 'Region', enum: ['nord', 'sued'] },
    stufe: { type: 'string', title: 'Stufe', enum: ['eins', 'zwei'] },
    tage: { type: 'integer', title: 'Tage', minimum: 1 },
    kanaele: {
      type: 'array',
      title: 'Kanäle',
      items: { type: 'string', enum: ['post', 'sms'] },
    },
    start: { type: 'string', title: 'Beginn', format: 'date-time' },
    zustimmung: { type: 'boolean', title: 'Zustimmung' },
  },
};

/** One Request of every kind and state a view shows, keyed by what it exercises. */
export const everyRequest = {
  form: {
    id: 'form',
    kind: 'input',
    prompt: 'Welche Region?',
    expiresAt: inAnHour(),
    data: { origin, schema },
  },
  reask: {
    id: 'reask',
    kind: 'input',
    prompt: 'Wie viele Tage?',
    data: { origin, schema, values: { tage: 0 }, errors: { tage: 'Zu wenige' }, attempt: 2 },
  },
  badSchema: {
    id: 'badSchema',
    kind: 'input',
    prompt: 'Kaputt?',
    data: { origin, schema: { type: 'object', properties: { x: { type: 'date' } } } },
  },
  consent: {
    id: 'consent',
    kind: 'authorization',
    prompt: 'Anmelden?',
    url: 'https://kunde@xn--pypal-4ve.com:8443/login',
    data: { origin },
  },
  noScheme: {
    id: 'noScheme',
    kind: 'authorization',
    prompt: 'Skript?',
    url: 'javascript:alert(1)',
    data: { origin },
  },
  noUrl: { id: 'noUrl', kind: 'authorization', prompt: 'Ohne?', data: { origin } },
  garbage: { id: 'garbage', kind: 'authorization', prompt: 'Müll?', url: 'kein Ziel' },
  approval: { id: 'approval', kind: 'approval', prompt: 'Freigeben?', url: 'ftp://ablage' },
  sampling: {
    id: 'sampling',
    kind: 'sampling',
    prompt: 'Modell fragen?',
    data: {
      origin,
      params: {
        systemPrompt: 'Sei knapp',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hallo' } },
          { role: 'assistant', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
        ],
        modelPreferences: { hints: [{ name: 'claude' }], costPriority: 0.25, speedPriority: 0.5 },
        maxTokens: 1234,
      },
    },
  },
  samplingTooLarge: {
    id: 'samplingTooLarge',
    kind: 'sampling',
    prompt: 'Zu viel?',
    data: {
      origin,
      params: {
        messages: Array.from({ length: 201 }, () => ({
          role: 'user',
          content: { type: 'text', text: 'x' },
        })),
      },
    },
  },
} satisfies Record<string, Request>;

/** A fresh inbox holding every Request of everyRequest (their Answers are not awaited). */
export function everyViewInbox(): Inbox {
  const inbox = createInbox();
  for (const request of Object.values(everyRequest)) void inbox.waitFor(request);
  return inbox;
}

/**
 * An inbox that sends answers elsewhere and says why some did not go through (as a remote inbox
 * does): a form refused with field errors, one not sent, one refused with a reason, and answers
 * that lost the race: to one given by Ada, to one given by somebody the server does not name (or
 * an older server that gives no reason), to expiry, and to the asker no longer needing it.
 */
export function failingInbox(): Inbox & { getAnswerError(id: string): unknown } {
  const inbox = createInbox();
  const failures: Record<string, unknown> = {
    refusedForm: { code: 'invalid_form', message: '-', errors: { region: 'Nicht dort' } },
    notSent: { code: 'unavailable', message: '-' },
    refused: { code: 'refused', message: 'Nein.' },
    lost: { code: 'conflict', message: '-', ended: 'answered', answeredBy: 'Ada' },
    ohneGrund: { code: 'conflict', message: '-' },
    zuSpaet: { code: 'conflict', message: '-', ended: 'expired' },
    abgesagt: { code: 'conflict', message: '-', ended: 'cancelled' },
  };
  void inbox.waitFor({
    ...everyRequest.form,
    id: 'refusedForm',
    prompt: 'Welche Region sonst?',
    expiresAt: undefined,
  });
  for (const id of ['notSent', 'refused', 'lost', 'ohneGrund', 'zuSpaet', 'abgesagt'])
    void inbox.waitFor({ id, kind: 'approval', prompt: `${id}?`, data: { origin } });
  return {
    ...inbox,
    getAnswerError: (id) => (Object.hasOwn(failures, id) ? failures[id] : undefined),
  };
}

/** A list item that fails to render for the Request "broken" (for error boundaries in a DOM). */
export function BreakingItem({ id }: RequestListItemProps) {
  if (id === 'broken') throw new Error('this view fails');
  return <RequestListItem id={id} />;
}

/** Every view react has, under providers with the given settings (`broken` needs a DOM). */
export function EveryView({
  inbox,
  broken = false,
  ...settings
}: Omit<WaitforProviderProps, 'children'> & { broken?: boolean }) {
  const closed: Request = { id: 'closed', kind: 'approval', prompt: 'Schon erledigt?' };
  const [failing] = useState(failingInbox);
  return (
    <>
      <WaitforProvider inbox={inbox} {...settings}>
        <RequestList item={broken ? BreakingItem : undefined} />
        <ApprovalView request={closed} />
        <Countdown expiresAt="2001-01-01T00:00:00Z" />
        <CallProgress progress={3} total={10} message="Lade Dateien" label="Hochladen" />
        <CallProgress progress={3} />
        <ConnectionStatus server="Reisebüro" state="connecting" />
        <ConnectionStatus server="Reisebüro" state="connected" />
        <ConnectionStatus server="Reisebüro" state="reconnecting" />
        <ConnectionStatus server="Reisebüro" state="closed" />
      </WaitforProvider>
      <WaitforProvider inbox={createInbox()} {...settings}>
        <RequestList />
      </WaitforProvider>
      <WaitforProvider inbox={failing} {...settings}>
        <RequestList />
        <AnsweredElsewhere
          request={{ id: 'gone', kind: 'approval', prompt: 'Weg?' }}
          onDismiss={() => {}}
        />
      </WaitforProvider>
    </>
  );
}
