import { ConnectionStatus } from '@waitfor/react';
import { usePageText } from './locales/usePageText.js';
import { ToolList } from './ToolList.js';
import type { ServerState, ToolEntry } from './useExampleSession.js';

/** Props of ServerPanel. */
export interface ServerPanelProps {
  server: ServerState;
  /** Names of this server's tools with a call running. */
  busy: ReadonlySet<string>;
  onCall(server: string, tool: ToolEntry): void;
}

/** One server: its era, its connection state and its tools, each with a Run button. */
export function ServerPanel({ server, busy, onCall }: ServerPanelProps) {
  const say = usePageText();
  const name = server.config.name;
  const era = server.era ?? server.config.era;
  return (
    <article className="server" aria-label={name} data-era={era}>
      <header>
        <h2>{name}</h2>
        <span className={`era era-${era}`}>
          {say(era === 'legacy' ? 'legacyEra' : 'modernEra')}
        </span>
      </header>
      {server.status === 'failed' ? (
        <p role="alert">{say('connectionFailed', { error: server.error ?? '' })}</p>
      ) : (
        <ConnectionStatus server={name} state={server.connection ?? 'connecting'} />
      )}
      <ToolList owner={name} tools={server.tools} busy={busy} onCall={onCall} />
    </article>
  );
}
