import { ToolList } from './ToolList.js';
import type { ServerState, ToolEntry } from './useExampleSession.js';

/** Props of ServerPanel. */
export interface ServerPanelProps {
  server: ServerState;
  onCall(server: string, tool: ToolEntry): void;
}

/** One server: its era, its connection state and its tools, each with a Run button. */
export function ServerPanel({ server, onCall }: ServerPanelProps) {
  const name = server.config.name;
  const era = server.era ?? server.config.era;
  return (
    <article className="server" aria-label={name} data-era={era}>
      <header>
        <h2>{name}</h2>
        <span className={`era era-${era}`}>
          {era === 'legacy' ? 'legacy era · 2025-11-25' : 'modern era · 2026-07-28'}
        </span>
      </header>
      {server.status === 'connecting' ? <p className="muted">Connecting…</p> : null}
      {server.status === 'failed' ? <p role="alert">Not connected: {server.error}</p> : null}
      <ToolList owner={name} tools={server.tools} onCall={onCall} />
    </article>
  );
}
