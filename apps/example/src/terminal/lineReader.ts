import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isCancel, text } from '@clack/prompts';
import { fitText } from './layout.js';

/** Asks one line at a time; the terminal waitFor's only way to read the person. */
export interface LineReader {
  /** Prompts for one line and resolves with it (trimmed); rejects when `signal` aborts or input ends. */
  ask(prompt: string, signal?: AbortSignal): Promise<string>;
  /** Prints text (a newline is added). Both fit every row to the terminal's width (see fitRows). */
  print(text: string): void;
  /** Whether the input has ended (end of a pipe, Ctrl-D, or close). */
  readonly ended: boolean;
  close(): void;
}

/** Why an `ask` failed because there is nothing more to read. */
export class InputEndedError extends Error {
  constructor() {
    super('The terminal input ended');
    this.name = 'InputEndedError';
  }
}

/** Why an `ask` failed when the person left the prompt: Escape drops it, Ctrl-C stops. */
export class PromptCancelledError extends Error {
  constructor(readonly key: 'escape' | 'ctrl-c') {
    super(key === 'escape' ? 'The person pressed Escape' : 'The person pressed Ctrl-C');
    this.name = 'PromptCancelledError';
  }
}

/** Rows are fitted to this width when the output is not a terminal that tells its own. */
const defaultColumns = 80;
/** The prompt library draws a prompt's first row after a symbol and two spaces. */
const promptLead = 3;

/**
 * A LineReader over @clack/prompts' text prompt: line editing, and a frame around the prompt that
 * shows whether it is waiting, answered or cancelled. Ctrl-C at a prompt calls `onInterrupt`
 * (default: close, ending every prompt); Escape drops only that prompt. Both reject the prompt
 * with a PromptCancelledError.
 * Rows are broken before the terminal or the library would wrap them, prompts included: a wrapped
 * row would continue at column 0. Lines typed while no prompt waits are not kept.
 */
export function createLineReader(
  input: Readable,
  output: Writable,
  onInterrupt?: () => void,
): LineReader {
  const ending = new AbortController();
  let ended = false;
  const end = () => {
    ended = true;
    ending.abort(new InputEndedError());
  };
  input.once('end', end);
  input.once('close', end);
  // The library answers Ctrl-C and Escape alike (a cancelled prompt): the last key tells which.
  // In raw mode Ctrl-D is a key, not the end of the input: it ends the input here, as on a line.
  let interrupted = false;
  const onKey = (_text: string | undefined, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl === true && key.name === 'c') interrupted = true;
    if (key?.ctrl === true && key.name === 'd') end();
  };
  emitKeypressEvents(input);
  input.on('keypress', onKey);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    input.off('keypress', onKey);
    input.off('end', end);
    input.off('close', end);
    end();
    // The library reads the input through readline, which leaves it flowing: a TTY would keep
    // the process alive.
    input.pause();
  };
  // Read at every write: a terminal can be resized between two prompts.
  const columns = () => {
    const terminal = output as { isTTY?: boolean; columns?: number };
    const width = terminal.isTTY === true ? terminal.columns : undefined;
    return width !== undefined && width > 0 ? width : defaultColumns;
  };

  return {
    get ended() {
      return ended;
    },
    async ask(prompt, signal) {
      if (signal?.aborted) throw signal.reason;
      if (ended) throw new InputEndedError();
      interrupted = false;
      const value = await text({
        // The prompt's trailing spaces are kept: the cursor row is drawn below it.
        message: fitText(prompt, columns() - promptLead),
        input,
        output,
        signal: signal ? AbortSignal.any([signal, ending.signal]) : ending.signal,
      });
      if (!isCancel(value)) return (value ?? '').trim();
      if (signal?.aborted) throw signal.reason;
      if (ended) throw new InputEndedError();
      if (interrupted) (onInterrupt ?? close)();
      throw new PromptCancelledError(interrupted ? 'ctrl-c' : 'escape');
    },
    print(line) {
      output.write(`${fitText(line, columns())}\n`);
    },
    close,
  };
}
