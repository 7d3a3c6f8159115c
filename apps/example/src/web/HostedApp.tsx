import { useRef, useState, useSyncExternalStore } from 'react';
import type { createRemoteInbox } from '@waitfor/http/client';
import { CallProgress, ConnectionStatus, WaitforProvider } from '@waitfor/react';
import { CancelCall, statusKey } from './CallLog.js';
import { QuestionList } from './QuestionList.js';
import { Settings } from './Settings.js';
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
  const titles = new Map<string, string>();
  for (const server of session.servers)
    for (const tool of server.tools) titles.set(callKey(server.name, tool.name), tool.title);
  const gone = new Set(
    session.servers
      .filter((server) => server.state === 'closed' || server.state === 'reconnecting')
      .map((server) => server.name),
  );
  const onCall = (owner: string, tool: { name: string }) => {
    started.current = callKey(owner, tool.name);
    session.callTool(owner, tool.name);
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
      {session.error !== undefined ? (
        <p role="alert">{say('loadError', { error: session.error })}</p>
      ) : null}
      <main className="layout">
        <section className="servers" aria-label={say('servers')}>
          <ConnectionStatus server={say('inbox')} state={inboxState} />
          {session.servers.map((server) => (
            <ServerBox
              key={server.name}
              server={server}
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
          <div className="requests">
            <QuestionList
              titles={titles}
              gone={gone}
              startedRef={started}
              empty={<p className="empty">{say('empty')}</p>}
            />
          </div>
        </section>
        <section className="results" aria-label={say('results')}>
          <h2>{say('results')}</h2>
          <HostedCalls calls={session.calls} onCancel={session.cancelCall} />
        </section>
      </main>
    </>
  );
}

function ServerBox({
  server,
  busy,
  onCall,
}: {
  server: HostedServer;
  busy: ReadonlySet<string>;
  onCall(owner: string, tool: { name: string }): void;
}) {
  const say = usePageText();
  return (
    <article className="server" aria-label={server.name} data-era={server.era}>
      <header>
        <h2>{server.name}</h2>
        <span className={`era era-${server.era}`}>{say(eraKey[server.era])}</span>
      </header>
      {server.era === 'host' ? null : server.error !== undefined ? (
        <p role="alert">{say('connectionFailed', { error: server.error })}</p>
      ) : (
        <ConnectionStatus server={server.name} state={server.state} />
      )}
      <ToolList owner={server.name} tools={server.tools} busy={busy} onCall={onCall} />
    </article>
  );
}

/** The host's calls, newest first: status, progress while running, result, and Cancel call. */
function HostedCalls({
  calls,
  onCancel,
}: {
  calls: readonly HostedCall[];
  onCancel(id: string): void;
}) {
  const say = usePageText();
  if (calls.length === 0) return <p className="empty">{say('nothingRun')}</p>;
  return (
    <ol className="calls">
      {calls.map((call) => (
        <li key={call.id} className={`call call-${call.status}`} data-tool={call.tool}>
          <div className="call-head">
            <span>
              <strong>{call.server}</strong> · {call.title}
            </span>
            <span className="status">{say(statusKey[call.status])}</span>
          </div>
          {call.status === 'running' && call.progress !== undefined ? (
            <CallProgress
              progress={call.progress.progress}
              total={call.progress.total}
              message={call.progress.message}
              label={say('progress', { tool: call.title })}
            />
          ) : null}
          {call.text !== undefined ? <p className="call-text">{call.text}</p> : null}
          {call.status === 'running' ? (
            <CancelCall title={call.title} onCancel={() => onCancel(call.id)} />
          ) : null}
        </li>
      ))}
    </ol>
  );
}
