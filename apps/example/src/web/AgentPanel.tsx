import { useState } from 'react';
import type { AgentEntry, AgentState, AgentToolStatus } from '../agent/agentChat.js';
import { callKey } from './callQuestions.js';
import type { PageTextKey } from './locales/pageText.js';
import { usePageText } from './locales/usePageText.js';

const toolStatusKey: Record<AgentToolStatus, PageTextKey> = {
  approval: 'agentApproval',
  running: 'running_',
  done: 'done',
  failed: 'failed',
  denied: 'agentDenied',
  cancelled: 'cancelled',
};

function EntryLine({ entry, titles }: { entry: AgentEntry; titles: ReadonlyMap<string, string> }) {
  const say = usePageText();
  if (entry.role === 'tool') {
    const title = titles.get(callKey(entry.server, entry.tool)) ?? entry.tool;
    return (
      <li className={`agent-tool call-${entry.status}`} data-tool={entry.tool}>
        <div className="call-head">
          <span>
            <strong>{entry.server}</strong> · {title}
          </span>
          <span className="status">{say(toolStatusKey[entry.status])}</span>
        </div>
        {entry.text === '' ? null : <p className="call-text">{entry.text}</p>}
      </li>
    );
  }
  if (entry.role === 'note')
    return (
      <li className="agent-note">
        {entry.note === 'stopped' ? say('agentStopped') : say('agentFailed', { error: entry.text })}
      </li>
    );
  return (
    <li className={`agent-${entry.role}`}>
      <span className="agent-who">{say(entry.role === 'user' ? 'agentYou' : 'agentModel')}</span>
      <p>{entry.text}</p>
    </li>
  );
}

/**
 * The agent mode (hosted): a conversation with an AI SDK agent whose model is the AI SDK's own
 * scripted test model. Its tool calls run on the host through `@waitfor/ai-sdk`; their questions,
 * and the approvals the agent asks before some tools, appear in the question list beside it.
 */
export function AgentPanel({
  agent,
  titles,
  unavailable,
  onSend,
  onStop,
}: {
  agent: AgentState;
  /** A tool's title by call key (server and tool). */
  titles: ReadonlyMap<string, string>;
  /** The host cannot be reached: nothing can be sent. */
  unavailable: boolean;
  onSend(text: string): void;
  onStop(): void;
}) {
  const say = usePageText();
  const [text, setText] = useState('');
  const running = agent.status === 'running';
  return (
    <section className="agent" aria-label={say('agent')}>
      <h2>{say('agent')}</h2>
      <p className="agent-intro">{say('agentIntro')}</p>
      {agent.entries.length === 0 ? null : (
        <ol className="agent-entries" aria-live="polite">
          {agent.entries.map((entry) => (
            <EntryLine key={entry.id} entry={entry} titles={titles} />
          ))}
        </ol>
      )}
      <form
        className="agent-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (running || unavailable || text.trim() === '') return;
          onSend(text);
          setText('');
        }}
      >
        <label htmlFor="agent-message">{say('agentMessage')}</label>
        <input
          id="agent-message"
          value={text}
          maxLength={200}
          placeholder={say('agentPlaceholder')}
          onChange={(event) => setText(event.target.value)}
        />
        {running ? (
          <button type="button" className="secondary" onClick={onStop}>
            {say('agentStop')}
          </button>
        ) : (
          <button type="submit" aria-disabled={unavailable || undefined}>
            {say('agentSend')}
          </button>
        )}
      </form>
    </section>
  );
}
