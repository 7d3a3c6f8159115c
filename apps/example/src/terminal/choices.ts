import type { Screen } from './formPrompts.js';

/** One answer a choice prompt takes: its letter, or one of its whole words. */
export interface Choice<Key extends string> {
  key: Key;
  /** The words that also choose it, e.g. `send` for `s`. */
  words: readonly string[];
}

/**
 * The choice `text` names, or undefined when it names none. Only the exact letter or a whole word
 * counts (case-insensitive, trimmed): "stop" is not "s", "nope" is not "n", "continue" is not "c",
 * because a prefix match once started a deployment from a person typing "stop". Empty text takes
 * `fallback`, the default the prompt shows.
 */
export function readChoice<Key extends string>(
  text: string,
  choices: readonly Choice<Key>[],
  fallback?: Key,
): Key | undefined {
  const typed = text.trim().toLowerCase();
  if (typed === '') return fallback;
  return choices.find((choice) => choice.key === typed || choice.words.includes(typed))?.key;
}

/** Asks `prompt` until the person types one of `choices` (or Enter, for `fallback`). */
export async function askChoice<Key extends string>(
  reader: Screen,
  prompt: string,
  choices: readonly Choice<Key>[],
  fallback?: Key,
  signal?: AbortSignal,
): Promise<Key> {
  for (;;) {
    const text = await reader.ask(prompt, signal);
    const choice = readChoice(text, choices, fallback);
    if (choice !== undefined) return choice;
    const listed = choices.map((each) => `${each.key} (${each.words.join(', ')})`).join(', ');
    reader.print(`  "${text}" is not one of the choices. Please type ${listed}.`);
  }
}

/** The choices every prompt of the terminal waitFor is made of. */
export const choices = {
  answer: { key: 'a', words: ['answer'] },
  send: { key: 's', words: ['send'] },
  edit: { key: 'e', words: ['edit'] },
  decline: { key: 'd', words: ['decline'] },
  cancel: { key: 'c', words: ['cancel'] },
  yes: { key: 'y', words: ['yes'] },
  approve: { key: 'y', words: ['yes', 'approve'] },
  refuse: { key: 'n', words: ['no', 'decline'] },
} as const satisfies Record<string, Choice<string>>;

/**
 * The 1-based position `text` names among `count` entries: plain decimal digits only, trimmed.
 * Number() alone would also read "0x2", "2e0", "2.0" or "+2" as a position the person never typed.
 */
export function readNumber(text: string, count: number): number | undefined {
  const typed = text.trim();
  if (!/^[0-9]{1,9}$/.test(typed)) return undefined;
  const number = Number(typed);
  return number >= 1 && number <= count ? number : undefined;
}
