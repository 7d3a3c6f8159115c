import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createInbox } from '@waitfor/core';
import { createLegacySpec } from '@waitfor/legacy-spec';
import type { LegacySpec } from '@waitfor/legacy-spec';
import { WaitforProvider } from '@waitfor/react';
import { hostName, hostTools } from '../hostTool/hostTools.js';
import { CallLog } from './CallLog.js';
import { HostPanel } from './HostPanel.js';
import { QuestionList } from './QuestionList.js';
import { ServerPanel } from './ServerPanel.js';
import { Settings } from './Settings.js';
import { SignInWaits } from './SignInWaits.js';
import type { Theme } from './Settings.js';
import { callKey, stillWaiting } from './callQuestions.js';
import type { CallQuestions } from './callQuestions.js';
import type { Language } from './locales/pageText.js';
import { LanguageContext, usePageText } from './locales/usePageText.js';
import { waitforText } from './locales/waitforText.js';
import { useExampleSession } from './useExampleSession.js';
import type { CallState, ToolEntry } from './useExampleSession.js';

/** The URL steps the person consented to and is still finishing (see stillWaiting). */
function useSignInWaits(legacy: LegacySpec, calls: readonly CallQuestions[]) {
  const elicitations = useSyncExternalStore(
    legacy.subscribe,
    legacy.getSnapshot,
    legacy.getSnapshot,
  );
  return stillWaiting(elicitations, calls);
}

/** The names of the tools with a call running, by owner (server or this app). */
const busyTools = (calls: readonly CallState[], owner: string): ReadonlySet<string> =>
  new Set(
    calls
      .filter((call) => call.status === 'running' && call.server === owner)
      .map((call) => call.tool),
  );

/**
 * The example page: both servers' tools and the app's own, one list of questions from either era
 * and from the app, grouped by call, and the results; in English or German, light or dark.
 */
export function App() {
  const [language, setLanguage] = useState<Language>('en');
  const [theme, setTheme] = useState<Theme>('system');
  const text = waitforText[language];
  return (
    <LanguageContext.Provider value={language}>
      <Page
        language={language}
        theme={theme}
        onLanguage={setLanguage}
        onTheme={setTheme}
        messages={text.messages}
        translateFieldError={text.translateFieldError}
      />
    </LanguageContext.Provider>
  );
}

function Page({
  messages,
  translateFieldError,
  ...settings
}: React.ComponentProps<typeof Settings> & (typeof waitforText)[Language]) {
  const say = usePageText();
  const inbox = useMemo(() => createInbox(), []);
  // Completion notifications settle a URL question that is still open (finished before consent).
  const legacy = useMemo(() => createLegacySpec({ inbox }), [inbox]);
  const session = useExampleSession(inbox, legacy);
  const { callTool, retryCall } = session;
  const waits = useSignInWaits(legacy, session.calls);
  // The call the person just started: its first question takes focus (QuestionList).
  const started = useRef<string | undefined>(undefined);
  const onCall = useCallback(
    (owner: string, tool: ToolEntry) => {
      started.current = callKey(owner, tool.name);
      callTool(owner, tool);
    },
    [callTool],
  );
  const onRetry = useCallback(
    (call: CallState) => {
      started.current = callKey(call.server, call.tool);
      retryCall(call);
    },
    [retryCall],
  );
  const titles = new Map<string, string>();
  for (const server of session.servers)
    for (const tool of server.tools) titles.set(callKey(server.config.name, tool.name), tool.title);
  for (const tool of hostTools) titles.set(callKey(hostName, tool.name), tool.title);
  const gone = new Set(
    session.servers
      .filter((server) => server.connection === 'closed' || server.connection === 'reconnecting')
      .map((server) => server.config.name),
  );
  const busy = new Set(
    session.calls
      .filter((call) => call.status === 'running')
      .map((call) => callKey(call.server, call.tool)),
  );

  return (
    <WaitforProvider
      inbox={inbox}
      locale={settings.language}
      messages={messages}
      translateFieldError={translateFieldError}
      headingLevel={4}
    >
      <header className="top">
        <div>
          <h1>{say('title')}</h1>
          <p>{say('intro')}</p>
        </div>
        <Settings {...settings} />
      </header>
      {session.loadError !== undefined ? (
        <p role="alert">{say('loadError', { error: session.loadError })}</p>
      ) : null}
      <main className="layout">
        <section className="servers" aria-label={say('servers')}>
          {session.servers.map((server) => (
            <ServerPanel
              key={server.config.name}
              server={server}
              busy={busyTools(session.calls, server.config.name)}
              onCall={onCall}
            />
          ))}
          <HostPanel busy={busyTools(session.calls, hostName)} onCall={onCall} />
        </section>
        <section className="inbox" aria-label={say('questions')}>
          <h2>{say('questions')}</h2>
          <SignInWaits
            waits={waits.map((entry) => ({
              id: entry.request.id,
              server: entry.server,
              prompt: entry.request.prompt,
            }))}
          />
          <div className="requests">
            <QuestionList
              titles={titles}
              gone={gone}
              startedRef={started}
              empty={
                <p className="empty">{say(waits.length > 0 ? 'emptyWhileWaiting' : 'empty')}</p>
              }
            />
          </div>
        </section>
        <section className="results" aria-label={say('results')}>
          <h2>{say('results')}</h2>
          <CallLog
            calls={session.calls}
            busy={busy}
            onCancel={session.cancelCall}
            onRetry={onRetry}
          />
        </section>
      </main>
    </WaitforProvider>
  );
}
