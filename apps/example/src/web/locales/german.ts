import type { FormField } from '@waitfor/core/form';
import type { WaitforMessages } from '@waitfor/react';

/** Every text of @waitfor/react in German (the provider's `messages`). */
export const germanMessages: WaitforMessages = {
  asks: '{server} fragt:',
  region: 'Frage von {server}: {prompt}',
  unknownServer: 'Unbekannter Server',
  closed: 'Anderswo beantwortet: Diese Frage ist nicht mehr offen.',
  closedBy: 'Anderswo beantwortet von {who}: Diese Frage ist nicht mehr offen.',
  closedExpired: 'Diese Frage ist abgelaufen.',
  closedCancelled: 'Die Antwort wird nicht mehr gebraucht.',
  closedEnded: 'Diese Frage ist nicht mehr offen.',
  dismiss: 'Ausblenden',
  notSent: 'Ihre Antwort konnte nicht gesendet werden. Sie bleibt hier: Senden Sie sie erneut.',
  refusedFields: 'Ihre Antwort wurde nicht angenommen: siehe die markierten Felder.',
  notAccepted: 'Ihre Antwort wurde nicht angenommen: {error}',
  expires: 'Läuft ab {remaining}, um {time}',
  expired: 'Abgelaufen',
  action: '{action} — {prompt} ({server})',
  accept: 'Senden',
  approve: 'Zustimmen',
  decline: 'Ablehnen',
  cancel: 'Abbrechen',
  list: 'Offene Fragen',
  empty: 'Keine offenen Fragen.',
  arrived: 'Neue Frage von {server}: {prompt}',
  arrivedMany: '{count} neue Fragen',
  broken:
    'Diese Frage kann nicht angezeigt werden. Sie können sie trotzdem ablehnen oder abbrechen.',
  attempt: 'Erneut gefragt: Bitte prüfen Sie Ihre Antwort.',
  schemaError:
    'Dieses Formular kann nicht angezeigt werden: {error}. Sie können es trotzdem ablehnen oder abbrechen.',
  choose: 'Bitte wählen…',
  dateTimeHint: 'Datum und Uhrzeit, z. B. 2026-01-31T09:00:00Z',
  willOpen: 'Geöffnet wird:',
  site: 'Website:',
  open: '{site} öffnen',
  openLink: 'Link öffnen',
  noAddress: 'Es wurde keine Adresse angegeben.',
  badAddress: 'Das ist keine gültige Adresse.',
  badScheme: 'Nur http- und https-Adressen können geöffnet werden; diese verwendet „{scheme}“.',
  punycode:
    'Der Hostname enthält internationale (Punycode-„xn--“) Zeichen und könnte eine andere Website nachahmen.',
  credentials:
    'Die Adresse enthält einen Benutzernamen vor „@“; die Website ist der oben gezeigte Host.',
  edit: 'Bearbeiten',
  systemPrompt: 'Systemanweisung',
  conversation: 'Nachrichten an das Modell',
  user: 'Nutzer',
  assistant: 'Assistent',
  content: '[Inhalt vom Typ {type}]',
  models: 'Bevorzugte Modelle: {models}',
  priorities: 'Kosten {cost}, Geschwindigkeit {speed}, Intelligenz {intelligence}',
  maxTokens: 'Höchstens {count} Tokens',
  tooLarge:
    'Diese Anfrage ist zu groß zum Anzeigen. Sie können sie trotzdem ablehnen oder abbrechen.',
  progress: 'Fortschritt',
  progressOf: '{progress} von {total}',
  progressDone: '{progress} erledigt',
  connecting: 'Verbinde mit {server}…',
  connected: 'Verbunden mit {server}',
  reconnecting: 'Verbinde erneut mit {server}…',
  disconnected: 'Getrennt von {server}',
};

// Core's validation messages, word for word; the ones with a number are matched by their pattern.
const fixed = new Map([
  ['Required.', 'Pflichtfeld.'],
  ['Enter an email address.', 'Geben Sie eine E-Mail-Adresse ein.'],
  [
    'Enter a URI such as https://example.com.',
    'Geben Sie eine Adresse wie https://example.com ein.',
  ],
  ['Enter a date as YYYY-MM-DD.', 'Geben Sie ein Datum ein.'],
  [
    'Enter a date and time such as 2026-01-31T09:00:00Z.',
    'Geben Sie Datum und Uhrzeit wie 2026-01-31T09:00:00Z ein.',
  ],
  ['Enter a number.', 'Geben Sie eine Zahl ein.'],
  ['Enter a whole number.', 'Geben Sie eine ganze Zahl ein.'],
  ['Enter text.', 'Geben Sie Text ein.'],
  ['Choose yes or no.', 'Wählen Sie Ja oder Nein.'],
  ['Choose one of the options.', 'Wählen Sie eine der Möglichkeiten.'],
  ['Choose from the options.', 'Wählen Sie aus den Möglichkeiten.'],
  ['Choose only from the options.', 'Wählen Sie nur aus den Möglichkeiten.'],
  ['Choose each option once.', 'Wählen Sie jede Möglichkeit nur einmal.'],
]);
const patterns: [RegExp, (count: string) => string][] = [
  [/^Must be at least (-?[\d.e+]+)\.$/, (count) => `Mindestens ${count}.`],
  [/^Must be at most (-?[\d.e+]+)\.$/, (count) => `Höchstens ${count}.`],
  [/^Must be at least (\d+) characters?\.$/, (count) => `Mindestens ${count} Zeichen.`],
  [/^Must be at most (\d+) characters?\.$/, (count) => `Höchstens ${count} Zeichen.`],
  [/^Choose at least (\d+)\.$/, (count) => `Wählen Sie mindestens ${count}.`],
  [/^Choose at most (\d+)\.$/, (count) => `Wählen Sie höchstens ${count}.`],
];

/**
 * Core's English validation message for a field in German; a message it does not know (a
 * server's or a tool's own, e.g. zod's) is shown as it came.
 */
export function germanFieldError(message: string, _field: FormField): string {
  const known = fixed.get(message);
  if (known !== undefined) return known;
  for (const [pattern, say] of patterns) {
    const match = pattern.exec(message);
    if (match?.[1] !== undefined) return say(match[1]);
  }
  return message;
}
