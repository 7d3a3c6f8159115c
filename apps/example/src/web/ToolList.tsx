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
}

/**
 * The tools of one panel, each with a Run button. While a tool's call runs its button says so
 * and does nothing (aria-disabled, so it keeps focus and stays in the tab order).
 */
export function ToolList({ owner, tools, busy, onCall }: ToolListProps) {
  const say = usePageText();
  return (
    <ul className="tools">
      {tools.map((tool) => {
        const running = busy.has(tool.name);
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
              aria-label={say(running ? 'runningLabel' : 'runLabel', { tool: tool.title })}
              aria-disabled={running || undefined}
              onClick={() => {
                if (!running) onCall(owner, tool);
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
