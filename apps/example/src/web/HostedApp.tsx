import { useRef, useState, useSyncExternalStore } from 'react';
import type { createRemoteInbox } from '@waitfor/http/client';
import { ConnectionStatus, WaitforProvider } from '@waitfor/react';
import { AgentPanel } from './AgentPanel.js';
import { CallLog, useOwnerName } from './CallLog.js';
import { QuestionList } from './QuestionList.js';
import { Settings } from './Settings.js';
import { SignInWaits } from './SignInWaits.js';
import type { Theme } from './Settings.js';
import { ToolList } from './ToolList.js';
import { callKey } from './callQuestions.js';
import type { Language } from './locales/pageText.js';
import { LanguageContext, usePageText } from './locales/usePageText.js';
import { waitforText } from './locales/waitforText.js';
import { useHostedSession } from './useHostedSession.js';
import type { HostedCall, HostedServer } from './useHostedSession.js';

/** The page's remote inbox (made once, by main.tsx, for the page's life). */
export type RemoteInbox = ReturnType<typeof createRemoteInbox>;

const eraKey = { legacy: 'legacyEra', modern: 'modernEra', host: 'hostEra' } as const;

/**
 * The example page in the hosted mode: the MCP clients run on the host, which keeps the questions
 * (PGlite); this page lists and answers them through `/api/inbox` (`createRemoteInbox`, with
 * `@waitfor/react` unchanged) and runs tools through the host's `/api`.
 */
export function HostedApp({ inbox }: { inbox: RemoteInbox }) {
  const [language, setLanguage] = useState<Language>('en');
  const [theme, setTheme] = useState<Theme>('system');
  const text = waitforText[language];
  return (
    <LanguageContext.Provider value={language}>
      <WaitforProvider
        inbox={inbox}
        locale={language}
        messages={text.messages}
        translateFieldError={text.translateFieldError}
        headingLevel={4}
      >
        <HostedPage
          inbox={inbox}
          language={language}
          theme={theme}
          onLanguage={setLanguage}
          onTheme={setTheme}
        />
      </WaitforProvider>
    </LanguageContext.Provider>
  );
}

function HostedPage({
  inbox,
  ...settings
}: { inbox: RemoteInbox } & React.ComponentProps<typeof Settings>) {
  const say = usePageText();
  const session = useHostedSession();
  const inboxState = useSyncExternalStore(
    inbox.subscribeConnection,
    inbox.getConnectionState,
    inbox.getConnectionState,
  );
  const started = useRef<string | undefined>(undefined);
  // The host is down (or not reached yet): what it said last is stale, and nothing can be run.
  const down = session.link !== 'connected';
  const titles = new Map<string, string>();
  for (const server of session.servers)
    for (const tool of server.tools) titles.set(callKey(server.name, tool.name), tool.title);
  const gone = new Set(
    session.servers
      .filter((server) => server.state === 'closed' || server.state === 'reconnecting')
      .map((server) => server.name),
  );
  const busy = new Set(
    session.calls
      .filter((call) => call.status === 'running')
      .map((call) => callKey(call.server, call.tool)),
  );
  const waits = session.calls.flatMap((call) => call.waits ?? []);
  const onCall = (owner: string, tool: { name: string }) => {
    started.current = callKey(owner, tool.name);
    session.callTool(owner, tool.name);
  };
  const onRetry = (call: HostedCall) => {
    started.current = callKey(call.server, call.tool);
    session.retryCall(call.id);
  };
  return (
    <>
      <header className="top">
        <div>
          <h1>{say('title')}</h1>
          <p>{say('hostedIntro')}</p>
        </div>
        <Settings {...settings} />
      </header>
      <main className="layout">
        <HostAlert link={session.link} error={session.error} />
        <section className="servers" aria-label={say('servers')}>
          <ConnectionStatus server={say('inbox')} state={inboxState} />
          {session.servers.map((server) => (
            <ServerBox
              key={server.name}
              server={server}
              down={down}
              busy={
                new Set(
                  session.calls
                    .filter((call) => call.status === 'running' && call.server === server.name)
                    .map((call) => call.tool),
                )
              }
              onCall={onCall}
            />
          ))}
        </section>
        <section className="inbox" aria-label={say('questions')}>
          <h2>{say('questions')}</h2>
          <SignInWaits waits={waits} />
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
        <div className="side">
          <AgentPanel
            agent={session.agent}
            titles={titles}
            unavailable={down}
            onSend={session.sendAgent}
            onStop={session.stopAgent}
          />
          <section className="results" aria-label={say('results')}>
            <h2>{say('results')}</h2>
            <CallLog
              calls={session.calls}
              busy={busy}
              onCancel={session.cancelCall}
              onRetry={onRetry}
              unavailable={down}
            />
          </section>
        </div>
      </main>
    </>
  );
}

/**
 * A page-wide problem, across the layout's columns: the host cannot be reached (once it was lost,
 * or never answers: a first connection is quick), or a Run or Cancel it refused.
 */
function HostAlert({ link, error }: { link: string; error: string | undefined }) {
  const say = usePageText();
  const words =
    link === 'reconnecting' || link === 'closed'
      ? say('hostDown')
      : error !== undefined
        ? say('loadError', { error })
        : undefined;
  return words === undefined ? null : (
    <p role="alert" className="page-alert">
      {words}
    </p>
  );
}

function ServerBox({
  server,
  down,
  busy,
  onCall,
}: {
  server: HostedServer;
  /** The host cannot be reached: the server's state it reported last is not known to hold. */
  down: boolean;
  busy: ReadonlySet<string>;
  onCall(owner: string, tool: { name: string }): void;
}) {
  const say = usePageText();
  const ownerName = useOwnerName();
  const name = ownerName(server.name);
  return (
    <article className="server" aria-label={name} data-era={server.era}>
      <header>
        <h2>{name}</h2>
        <span className={`era era-${server.era}`}>{say(eraKey[server.era])}</span>
      </header>
      {server.era === 'host' ? null : down ? (
        <p className="host-unknown">{say('hostUnknown')}</p>
      ) : server.error !== undefined ? (
        <p role="alert">{say('connectionFailed', { error: server.error })}</p>
      ) : (
        <ConnectionStatus server={server.name} state={server.state} />
      )}
      <ToolList
        owner={server.name}
        tools={server.tools}
        busy={busy}
        onCall={onCall}
        unavailable={down}
      />
    </article>
  );
}
