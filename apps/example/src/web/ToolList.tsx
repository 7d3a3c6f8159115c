import { usePageText } from './locales/usePageText.js';
import type { ToolEntry } from './useExampleSession.js';

/** Props of ToolList. */
export interface ToolListProps {
  /** Who runs the tools: a server's name, or the example's own. */
  owner: string;
  tools: readonly ToolEntry[];
  /** Names of this panel's tools with a call running: their Run is busy. */
  busy: ReadonlySet<string>;
  onCall(owner: string, tool: ToolEntry): void;
  /** Set while nothing can be run (the hosted mode's host cannot be reached): every Run says so. */
  unavailable?: boolean;
}

/**
 * The tools of one panel, each with a Run button. While a tool's call runs its button says so
 * and does nothing (aria-disabled, so it keeps focus and stays in the tab order).
 */
export function ToolList({ owner, tools, busy, onCall, unavailable = false }: ToolListProps) {
  const say = usePageText();
  return (
    <ul className="tools">
      {tools.map((tool) => {
        const running = busy.has(tool.name);
        const idle = !running && !unavailable;
        return (
          <li key={tool.name}>
            <div>
              <strong>{tool.title}</strong>
              <p className="muted">{tool.description}</p>
            </div>
            <button
              type="button"
              className="run"
              data-starts-call=""
              aria-label={say(
                running ? 'runningLabel' : unavailable ? 'runUnavailable' : 'runLabel',
                { tool: tool.title },
              )}
              aria-disabled={!idle || undefined}
              onClick={() => {
                if (idle) onCall(owner, tool);
              }}
            >
              {say(running ? 'running' : 'run')}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
