import { usePageText } from './locales/usePageText.js';

/** A URL step the person consented to and is still finishing in another tab. */
export interface SignInWait {
  /** The question's id. */
  id: string;
  server: string;
  prompt: string;
}

/**
 * "<server> is waiting for you to finish in the other tab: <prompt>", one line per URL step
 * still being finished (both modes; see stillWaiting for which ones).
 */
export function SignInWaits({ waits }: { waits: readonly SignInWait[] }) {
  const say = usePageText();
  if (waits.length === 0) return null;
  return (
    <ul className="waits" aria-label={say('waiting')}>
      {waits.map((entry) => (
        <li key={entry.id}>
          {say('waitingFor', { server: entry.server })} {entry.prompt}
        </li>
      ))}
    </ul>
  );
}
