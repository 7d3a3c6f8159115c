import { hostName, hostTools } from '../hostTool/hostTools.js';
import { ToolList } from './ToolList.js';
import type { ToolEntry } from './useExampleSession.js';

/** Props of HostPanel. */
export interface HostPanelProps {
  onCall(owner: string, tool: ToolEntry): void;
}

/**
 * The example's own tools, a panel like a server's: they run in this page, not on a server, and
 * their questions go to the same list.
 */
export function HostPanel({ onCall }: HostPanelProps) {
  return (
    <article className="server" aria-label={hostName} data-era="host">
      <header>
        <h2>{hostName}</h2>
        <span className="era era-host">host-side · no MCP</span>
      </header>
      <ToolList owner={hostName} tools={hostTools} onCall={onCall} />
    </article>
  );
}
