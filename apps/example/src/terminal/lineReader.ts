import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fitText } from './layout.js';

/** Asks one line at a time; the terminal waitFor's only way to read the person. */
export interface LineReader {
  /** Prints `prompt` and resolves with the next line (trimmed); rejects when `signal` aborts or input ends. */
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

interface Waiter {
  resolve(line: string): void;
  reject(error: Error): void;
}

/** Rows are fitted to this width when the output is not a terminal that tells its own. */
const defaultColumns = 80;

/**
 * A LineReader over node:readline: line editing on a TTY, plain lines on a pipe. Lines typed (or
 * piped) before a prompt is shown are kept for the next prompt instead of being lost. On a TTY
 * readline swallows Ctrl-C, so `onInterrupt` is called instead (default: close, ending every prompt).
 * Rows are broken before the terminal would wrap them: a wrapped row would continue at column 0.
 */
export function createLineReader(
  input: Readable,
  output: Writable,
  onInterrupt?: () => void,
): LineReader {
  const readline = createInterface({ input, output });
  const lines: string[] = [];
  let waiter: Waiter | undefined;
  let ended = false;

  readline.on('line', (line) => {
    if (waiter === undefined) {
      lines.push(line);
      return;
    }
    const current = waiter;
    waiter = undefined;
    current.resolve(line);
  });
  readline.on('close', () => {
    ended = true;
    waiter?.reject(new InputEndedError());
    waiter = undefined;
  });
  readline.on('SIGINT', () => (onInterrupt ?? (() => readline.close()))());
  // Read at every write: a terminal can be resized between two prompts.
  const fit = (text: string) => {
    const terminal = output as { isTTY?: boolean; columns?: number };
    const columns = terminal.isTTY === true ? terminal.columns : undefined;
    return fitText(text, columns !== undefined && columns > 0 ? columns : defaultColumns);
  };

  return {
    get ended() {
      return ended;
    },
    ask(prompt, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      output.write(fit(prompt));
      const queued = lines.shift();
      if (queued !== undefined) {
        // A line read ahead (piped input) answers this prompt; echo it as a terminal would.
        if (!(output as { isTTY?: boolean }).isTTY) output.write(`${queued}\n`);
        return Promise.resolve(queued.trim());
      }
      if (ended) return Promise.reject(new InputEndedError());
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          waiter = undefined;
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiter = {
          resolve: (line) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(line.trim());
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
      });
    },
    print(text) {
      output.write(`${fit(text)}\n`);
    },
    close() {
      readline.close();
    },
  };
}
