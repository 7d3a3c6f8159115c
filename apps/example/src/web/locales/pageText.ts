import { formatMessage } from '@waitfor/react';

/** Every text of the example page itself (the servers' own texts come in their language). */
const english = {
  title: 'waitfor example',
  intro:
    'Two MCP servers — one of the 2025 (legacy) era, one of the 2026 (modern) era — and a tool of this app itself ask you questions. The servers’ clients run in this page; every question lands in one list.',
  settings: 'Page settings',
  language: 'Language',
  theme: 'Theme',
  themeSystem: 'As the system',
  themeLight: 'Light',
  themeDark: 'Dark',
  loadError: 'Could not load the servers: {error}',
  servers: 'Servers',
  questions: 'Questions for you',
  results: 'Results',
  legacyEra: 'legacy era · 2025-11-25',
  modernEra: 'modern era · 2026-07-28',
  hostEra: 'host-side · no MCP',
  connectionFailed: 'Not connected: {error}',
  run: 'Run',
  runLabel: 'Run {tool}',
  running: 'Running…',
  runningLabel: 'Running… {tool}',
  waiting: 'Waiting for you in the browser',
  waitingFor: '{server} is waiting for you to finish in the other tab:',
  empty: 'No open questions. Run a tool to get one.',
  emptyWhileWaiting: 'Nothing to answer here while you finish in the other tab.',
  groups: 'Open questions by call',
  group: '{tool} · {server}',
  unknownCall: 'A call',
  groupGone: '{server} disconnected: these questions can no longer reach it.',
  nothingRun: 'Nothing run yet.',
  attempt: ' · run {attempt} times',
  running_: 'waiting…',
  done: 'done',
  declined: 'declined',
  failed: 'failed',
  cancelled: 'cancelled',
  cancelCall: 'Cancel call',
  cancelCallLabel: 'Cancel call: {tool}',
  retry: 'Retry',
  retryLabel: 'Retry: {tool}',
  notConnected: '{server} is not connected.',
  cancelledCall: 'Cancelled: the call was stopped and its questions withdrawn.',
  disconnectedCall: '{server} disconnected: the call ended and its questions were withdrawn.',
  declinedCall: 'You declined, so the tool did not go on.',
  hostRestarted: 'The host restarted: this call ended with it, and its questions were withdrawn.',
  hostDown:
    'The example host cannot be reached. This page tries again by itself; until then nothing can be run and answers cannot be sent.',
  hostUnknown: 'Not known while the host cannot be reached.',
  runUnavailable: 'Run {tool} (the host cannot be reached)',
  thisApp: 'This app',
  hostedIntro:
    'Two MCP servers — one of the 2025 (legacy) era, one of the 2026 (modern) era — and a tool of this app itself ask you questions. Their clients run on the host, which keeps every open question: reload, or open this page in a second browser, and the same list is there.',
  inbox: 'Question inbox',
  progress: 'Progress of {tool}',
  agent: 'Agent',
  agentIntro:
    'An AI SDK agent with both servers’ tools; its model is the AI SDK’s scripted test model (no network). Ask it to book a trip or to scale search-api: the questions of its tool calls, and the approvals it asks first, appear in the list beside this.',
  agentMessage: 'Message to the agent',
  agentPlaceholder: 'Scale search-api',
  agentSend: 'Send',
  agentStop: 'Stop',
  agentYou: 'You',
  agentModel: 'Agent',
  agentApproval: 'waiting for your approval',
  agentDenied: 'not allowed',
  agentStopped: 'You stopped the agent: its tool call ended and its questions were withdrawn.',
  agentFailed: 'The agent failed: {error}',
};

/** The keys of the page's own texts. */
export type PageTextKey = keyof typeof english;

const german: Record<PageTextKey, string> = {
  title: 'waitfor-Beispiel',
  intro:
    'Zwei MCP-Server — einer aus der Ära 2025 (legacy), einer aus der Ära 2026 (modern) — und ein Werkzeug dieser App selbst stellen Ihnen Fragen. Die Clients der Server laufen in dieser Seite; jede Frage landet in einer Liste.',
  settings: 'Seiteneinstellungen',
  language: 'Sprache',
  theme: 'Darstellung',
  themeSystem: 'Wie das System',
  themeLight: 'Hell',
  themeDark: 'Dunkel',
  loadError: 'Die Server konnten nicht geladen werden: {error}',
  servers: 'Server',
  questions: 'Fragen an Sie',
  results: 'Ergebnisse',
  legacyEra: 'Legacy-Ära · 2025-11-25',
  modernEra: 'Moderne Ära · 2026-07-28',
  hostEra: 'in der App · ohne MCP',
  connectionFailed: 'Nicht verbunden: {error}',
  run: 'Starten',
  runLabel: 'Starten: {tool}',
  running: 'Läuft…',
  runningLabel: 'Läuft… {tool}',
  waiting: 'Wartet auf Sie im Browser',
  waitingFor: '{server} wartet, bis Sie im anderen Tab fertig sind:',
  empty: 'Keine offenen Fragen. Starten Sie ein Werkzeug, um eine zu bekommen.',
  emptyWhileWaiting: 'Hier ist nichts zu beantworten, solange Sie im anderen Tab fertig werden.',
  groups: 'Offene Fragen nach Aufruf',
  group: '{tool} · {server}',
  unknownCall: 'Ein Aufruf',
  groupGone: '{server} ist getrennt: Diese Fragen erreichen ihn nicht mehr.',
  nothingRun: 'Noch nichts gestartet.',
  attempt: ' · {attempt}-mal gestartet',
  running_: 'wartet…',
  done: 'fertig',
  declined: 'abgelehnt',
  failed: 'fehlgeschlagen',
  cancelled: 'abgebrochen',
  cancelCall: 'Aufruf abbrechen',
  cancelCallLabel: 'Aufruf abbrechen: {tool}',
  retry: 'Erneut',
  retryLabel: 'Erneut: {tool}',
  notConnected: '{server} ist nicht verbunden.',
  cancelledCall: 'Abgebrochen: Der Aufruf wurde beendet und seine Fragen zurückgezogen.',
  disconnectedCall: '{server} ist getrennt: Der Aufruf endete, seine Fragen wurden zurückgezogen.',
  declinedCall: 'Sie haben abgelehnt, also ging das Werkzeug nicht weiter.',
  hostRestarted:
    'Der Host wurde neu gestartet: Dieser Aufruf endete damit, seine Fragen wurden zurückgezogen.',
  hostDown:
    'Der Beispiel-Host ist nicht erreichbar. Diese Seite versucht es von selbst erneut; bis dahin kann nichts gestartet und keine Antwort gesendet werden.',
  hostUnknown: 'Unbekannt, solange der Host nicht erreichbar ist.',
  runUnavailable: 'Starten: {tool} (der Host ist nicht erreichbar)',
  thisApp: 'Diese App',
  hostedIntro:
    'Zwei MCP-Server — einer aus der Ära 2025 (legacy), einer aus der Ära 2026 (modern) — und ein Werkzeug dieser App selbst stellen Ihnen Fragen. Ihre Clients laufen auf dem Host, der jede offene Frage aufbewahrt: Laden Sie neu oder öffnen Sie diese Seite in einem zweiten Browser, und dieselbe Liste ist da.',
  inbox: 'Fragen-Eingang',
  progress: 'Fortschritt von {tool}',
  agent: 'Agent',
  agentIntro:
    'Ein AI-SDK-Agent mit den Werkzeugen beider Server; sein Modell ist das geskriptete Testmodell des AI SDK (ohne Netz). Bitten Sie ihn, eine Reise zu buchen (book) oder search-api zu skalieren (scale): Die Fragen seiner Werkzeugaufrufe und die Zustimmungen, die er vorher einholt, erscheinen in der Liste daneben.',
  agentMessage: 'Nachricht an den Agenten',
  agentPlaceholder: 'Scale search-api',
  agentSend: 'Senden',
  agentStop: 'Anhalten',
  agentYou: 'Sie',
  agentModel: 'Agent',
  agentApproval: 'wartet auf Ihre Zustimmung',
  agentDenied: 'nicht erlaubt',
  agentStopped:
    'Sie haben den Agenten angehalten: Sein Werkzeugaufruf endete, seine Fragen wurden zurückgezogen.',
  agentFailed: 'Der Agent ist fehlgeschlagen: {error}',
};

/** The languages the page ships. */
export type Language = 'en' | 'de';

/** Each language's name in itself, for the picker. */
export const languageNames: Record<Language, string> = { en: 'English', de: 'Deutsch' };

const texts: Record<Language, Record<PageTextKey, string>> = { en: english, de: german };

/** The page's text for a key in a language, its `{name}` marks filled in. */
export function pageText(
  language: Language,
  key: PageTextKey,
  values?: Readonly<Record<string, string | number>>,
): string {
  return formatMessage(texts[language][key], values);
}
