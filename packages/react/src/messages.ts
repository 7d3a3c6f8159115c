/**
 * Every text @waitfor/react shows or announces, in English. `{name}` marks a value filled in at
 * render time; a translation may move or drop it.
 */
export const defaultMessages = {
  // Every view
  asks: '{server} asks:',
  region: 'Request from {server}: {prompt}',
  unknownServer: 'Unknown server',
  closed: 'Answered elsewhere: this request is no longer open.',
  closedBy: 'Answered elsewhere by {who}: this request is no longer open.',
  closedExpired: 'This question expired.',
  closedCancelled: 'The asker no longer needs this answer.',
  closedEnded: 'This question is no longer open.',
  dismiss: 'Dismiss',
  // An answer that did not go through (an inbox that sends answers elsewhere says why)
  notSent: 'Your answer could not be sent. It is kept here: send it again.',
  refusedFields: 'Your answer was not accepted: see the marked fields.',
  notAccepted: 'Your answer was not accepted: {error}',
  expires: 'Expires {remaining}, at {time}',
  expired: 'Expired',
  /** A button's accessible name: what it does and which question it answers. */
  action: '{action} — {prompt} ({server})',
  accept: 'Accept',
  approve: 'Approve',
  decline: 'Decline',
  cancel: 'Cancel',
  // The list
  list: 'Open requests',
  empty: 'No open requests.',
  arrived: 'New question from {server}: {prompt}',
  arrivedMany: '{count} new questions',
  broken: 'This request cannot be shown. You can still decline or cancel it.',
  // Forms
  attempt: 'Asked again: please check your answer.',
  schemaError: 'This form cannot be shown: {error}. You can still decline or cancel.',
  choose: 'Choose…',
  dateTimeHint: 'Date and time, e.g. 2026-01-31T09:00:00Z',
  // Authorization consent
  willOpen: 'This will open:',
  site: 'Site:',
  open: 'Open {site}',
  openLink: 'Open link',
  noAddress: 'No address was given.',
  badAddress: 'This is not a valid address.',
  badScheme: 'Only http and https addresses can be opened; this one uses "{scheme}".',
  punycode:
    'The host contains international (punycode "xn--") characters and may imitate another site.',
  credentials: 'The address carries a user name before "@"; the site is the host shown above.',
  // Sampling
  edit: 'Edit',
  systemPrompt: 'System prompt',
  conversation: 'Messages for the model',
  user: 'User',
  assistant: 'Assistant',
  content: '[{type} content]',
  models: 'Preferred models: {models}',
  priorities: 'Cost {cost}, speed {speed}, intelligence {intelligence}',
  maxTokens: 'At most {count} tokens',
  tooLarge: 'This request is too large to show. You can still decline or cancel it.',
  // Progress and connection
  progress: 'Progress',
  progressOf: '{progress} of {total}',
  progressDone: '{progress} done',
  connecting: 'Connecting to {server}…',
  connected: 'Connected to {server}',
  reconnecting: 'Reconnecting to {server}…',
  disconnected: 'Disconnected from {server}',
};

/** The keys of every text @waitfor/react shows. */
export type WaitforMessageKey = keyof typeof defaultMessages;

/** Every text @waitfor/react shows; a provider takes a partial set and fills the rest in English. */
export type WaitforMessages = { readonly [Key in WaitforMessageKey]: string };

/** Fills `{name}` marks from values (own keys only); a value is inserted as text, never re-read. */
export function formatMessage(
  template: string,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (mark, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : mark,
  );
}
