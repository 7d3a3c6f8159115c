import { hostName, hostTools } from '../hostTool/hostTools.js';
import { useOwnerName } from './CallLog.js';
import { usePageText } from './locales/usePageText.js';
import { ToolList } from './ToolList.js';
import type { ToolEntry } from './useExampleSession.js';

/** Props of HostPanel. */
export interface HostPanelProps {
  /** Names of the app's tools with a call running. */
  busy: ReadonlySet<string>;
  onCall(owner: string, tool: ToolEntry): void;
}

/**
 * The example's own tools, a panel like a server's: they run in this page, not on a server, and
 * their questions go to the same list.
 */
export function HostPanel({ busy, onCall }: HostPanelProps) {
  const say = usePageText();
  const ownerName = useOwnerName();
  return (
    <article className="server" aria-label={ownerName(hostName)} data-era="host">
      <header>
        <h2>{ownerName(hostName)}</h2>
        <span className="era era-host">{say('hostEra')}</span>
      </header>
      <ToolList owner={hostName} tools={hostTools} busy={busy} onCall={onCall} />
    </article>
  );
}
