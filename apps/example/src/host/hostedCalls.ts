import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallNote, CallStatus } from '../calls/callRuns.js';

/** How a hosted call stands (the page's words for a call's status). */
export type HostedStatus = CallStatus;

/** A URL step the person consented to and is finishing in another tab (legacy-spec holds it). */
export interface HostedWait {
  /** The question's id. */
  id: string;
  server: string;
  prompt: string;
}

/** One tool call the host runs for the page, as `GET /api/calls` lists it. */
export interface HostedCall {
  id: string;
  server: string;
  tool: string;
  title: string;
  status: HostedStatus;
  /** 1 for the first run; each Retry runs the same call again under the same entry. */
  attempt: number;
  /** What the tool returned (or why it failed), in the tool's words. */
  text?: string;
  /** Or the page's own words for how it ended (translated by the page). */
  note?: CallNote;
  /** The server's latest progress notification for this call. */
  progress?: { progress: number; total?: number; message?: string };
  /** The store's id of a durable (modern-era) call: after a restart the host awaits it again. */
  durableId?: string;
  /** The questions its run asked through the host's waitFor: a restart cancels them (nobody reads them). */
  questions?: readonly string[];
  /** Its URL steps the person is finishing in another tab (computed when listed, never saved). */
  waits?: HostedWait[];
}

// The page lists at most this many calls; older ended ones are forgotten.
const maxCalls = 50;

/**
 * The host's list of calls, written to `calls.json` in the data folder after each change so a
 * restarted host lists them again and resumes waiting for its durable ones.
 */
export class CallBook {
  private readonly calls = new Map<string, HostedCall>();
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string) {}

  /** Reads the list a previous run of the host left in `dataDir` (none: empty). */
  static async open(dataDir: string): Promise<CallBook> {
    const book = new CallBook(join(dataDir, 'calls.json'));
    const text = await readFile(book.file, 'utf8').catch(() => '[]');
    let saved: unknown;
    try {
      saved = JSON.parse(text);
    } catch {
      saved = [];
    }
    if (Array.isArray(saved))
      for (const call of saved as HostedCall[])
        // A list from an older example has no attempt: its calls ran once.
        if (typeof call?.id === 'string')
          book.calls.set(call.id, { ...call, attempt: Number(call.attempt) || 1 });
    return book;
  }

  /** Every call, newest first. */
  list(): HostedCall[] {
    return [...this.calls.values()].reverse();
  }

  get(id: string): HostedCall | undefined {
    return this.calls.get(id);
  }

  /** Adds or changes a call and saves the list (in order: the last write wins). */
  put(call: HostedCall): void {
    // A Map keeps the first insertion's place: a changed call stays where it was listed.
    this.calls.set(call.id, call);
    for (const [id, old] of this.calls) {
      if (this.calls.size <= maxCalls) break;
      if (old.status !== 'running') this.calls.delete(id);
    }
    const json = JSON.stringify([...this.calls.values()]);
    this.writing = this.writing.then(async () => {
      // Written aside then renamed: a host killed mid-write leaves the previous list whole.
      await writeFile(`${this.file}.tmp`, json);
      await rename(`${this.file}.tmp`, this.file);
    });
    this.writing.catch(() => {});
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.writing.catch(() => {});
  }
}
