import type { Readable, Writable } from 'node:stream';
import { createLegacySpec } from '@waitfor/legacy-spec';
import { connect } from '@waitfor/mcp-bridge';
import type { Connection } from '@waitfor/mcp-bridge';
import { startExample } from '../host/startExample.js';
import { hostName, hostTools } from '../hostTool/hostTools.js';
import { startHostTrace } from '../trace.js';
import { callTimeout } from '../web/callTimeout.js';
import { errorText, resultText } from '../web/resultText.js';
import { readNumber } from './choices.js';
import { cleanText } from './cleanText.js';
import { indentLines } from './layout.js';
import { createLineReader, InputEndedError, PromptCancelledError } from './lineReader.js';
import { createTerminalWaitFor } from './terminalWaitFor.js';

/** Where the terminal walkthrough reads and writes. */
export interface RunTerminalOptions {
  input?: Readable;
  output?: Writable;
  signal?: AbortSignal;
  /** Print a span per call and per question to the console (OpenTelemetry, through @waitfor/otel). */
  trace?: boolean;
}

interface ToolChoice {
  /** Who runs it: a server, or the example itself. */
  server: string;
  name: string;
  title: string;
  /** Runs the tool and resolves with its result as text. */
  run(signal: AbortSignal): Promise<string>;
}

// A result's lines after the first are indented: server text never starts a row at column 0,
// where the frame naming an asking server is drawn.
const serverLines = (text: string) => indentLines(cleanText(text, true)).slice(2);

/**
 * The terminal mode of the example: the same two servers, answered through prompts. Lists every
 * tool of both servers and the example's own tool, runs the one picked, and prints its result;
 * `q` quits.
 */
export async function runTerminal(options: RunTerminalOptions = {}): Promise<void> {
  const output = options.output ?? process.stdout;
  // Ctrl-C at a prompt stops the walkthrough like SIGINT does (the prompt reads it in raw mode).
  const interrupt = new AbortController();
  const reader = createLineReader(options.input ?? process.stdin, output, () => interrupt.abort());
  const signal = options.signal
    ? AbortSignal.any([options.signal, interrupt.signal])
    : interrupt.signal;
  const terminal = createTerminalWaitFor({ reader });
  // Without --trace no OpenTelemetry SDK is loaded or registered at all.
  const hostTrace = await startHostTrace(options.trace === true);
  // Questions of the servers and of the app's own tools alike become spans.
  const waitFor = hostTrace.instrument(terminal.waitFor);
  const example = await startExample();
  const legacy = createLegacySpec();
  const connections: Connection[] = [];
  legacy.onComplete((event) =>
    reader.print(`\n(${event.server}: the sign-in in your browser is complete.)`),
  );
  try {
    const choices: ToolChoice[] = [];
    for (const server of example.servers) {
      const connection = await connect(
        { url: server.url },
        {
          waitFor,
          name: 'waitfor-example-terminal',
          serverName: server.name,
          extensions: hostTrace.extensions(legacy.extension),
        },
      );
      connections.push(connection);
      const listed = (await connection.listTools()) as unknown;
      const tools = Array.isArray(listed)
        ? listed
        : ((listed as { tools?: unknown[] }).tools ?? []);
      for (const tool of tools as Array<{ name: string; title?: string }>) {
        // Tool names and titles come from the server: shown only once cleaned of control characters.
        choices.push({
          server: server.name,
          name: tool.name,
          title: cleanText(String(tool.title ?? tool.name)),
          run: async (signal) =>
            resultText(
              await connection.callTool(
                { name: tool.name, arguments: {} },
                { signal, timeout: callTimeout(connection) },
              ),
            ),
        });
      }
    }
    // The example's own tools ask through the same terminal waitFor as both servers.
    for (const tool of hostTools) {
      choices.push({
        server: hostName,
        name: tool.name,
        title: tool.title,
        run: (signal) => tool.run(waitFor, signal),
      });
    }
    reader.print(
      "waitfor example (terminal). Questions from both servers and this app's own tool are asked right here.",
    );
    for (;;) {
      reader.print('');
      choices.forEach((choice, index) =>
        reader.print(
          `  ${index + 1}) ${choice.server}: ${choice.title} (${cleanText(String(choice.name))})`,
        ),
      );
      const text = await reader
        .ask('Run which tool? (number, q to quit): ', signal)
        .catch((error: unknown) => {
          // Ctrl-C, SIGINT, Escape or the end of the input ends the walkthrough normally.
          if (
            signal.aborted ||
            error instanceof InputEndedError ||
            error instanceof PromptCancelledError
          )
            return 'q';
          throw error;
        });
      if (text === 'q' || text === 'quit') break;
      const number = readNumber(text, choices.length);
      const choice = number === undefined ? undefined : choices[number - 1];
      if (choice === undefined) {
        reader.print(`"${text}" is not on the list.`);
        continue;
      }
      reader.print(`Running ${cleanText(String(choice.name))} on ${choice.server}…`);
      try {
        const result = await choice.run(signal);
        reader.print(`\nResult from ${choice.server}: ${serverLines(result)}`);
      } catch (error) {
        // Ctrl-C is the person stopping, not the server failing: say so, and blame no one.
        reader.print(
          signal.aborted
            ? `\nYou stopped ${choice.title} (Ctrl-C); the call and its questions were withdrawn.`
            : `\n${choice.server} failed: ${serverLines(errorText(error))}`,
        );
      }
      if (signal.aborted || reader.ended) break;
    }
    reader.print('\nStopping…');
  } finally {
    terminal.close();
    await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
    await example.close();
    await hostTrace.close();
  }
}
