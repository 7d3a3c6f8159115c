import type { ToolEntry } from './useExampleSession.js';

/** Props of ToolList. */
export interface ToolListProps {
  /** Who runs the tools: a server's name, or the example's own. */
  owner: string;
  tools: readonly ToolEntry[];
  onCall(owner: string, tool: ToolEntry): void;
}

/** The tools of one panel, each with a Run button. */
export function ToolList({ owner, tools, onCall }: ToolListProps) {
  return (
    <ul className="tools">
      {tools.map((tool) => (
        <li key={tool.name}>
          <div>
            <strong>{tool.title}</strong>
            <p className="muted">{tool.description}</p>
          </div>
          <button
            type="button"
            aria-label={`Run ${tool.title}`}
            onClick={() => onCall(owner, tool)}
          >
            Run
          </button>
        </li>
      ))}
    </ul>
  );
}
