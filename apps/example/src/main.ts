import { fileURLToPath } from 'node:url';
import { startExample } from './host/startExample.js';
import type { StartExampleOptions } from './host/startExample.js';

const defaultPort = 5199;

function portFromArguments(argv: string[]): number {
  const index = argv.indexOf('--port');
  const text = index >= 0 ? argv[index + 1] : process.env.PORT;
  const port = text === undefined ? defaultPort : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`Not a port: ${text}`);
  return port;
}

/** Whether the person asked for the console trace: `--trace`, or WAITFOR_TRACE=1. */
const traceRequested = (argv: string[]) =>
  argv.includes('--trace') || process.env.WAITFOR_TRACE === '1';

const defaultDataDir = fileURLToPath(new URL('../.waitfor-data', import.meta.url));

/**
 * The hosted mode (the default) keeps its questions in `--data-dir` (or WAITFOR_DATA_DIR, else
 * apps/example/.waitfor-data) and prints its spans with `--trace`; `--in-page` runs the MCP clients
 * in the page instead.
 */
function modeFromArguments(argv: string[]): Pick<StartExampleOptions, 'hosted'> {
  if (argv.includes('--in-page')) return {};
  const index = argv.indexOf('--data-dir');
  const dataDir = index >= 0 ? argv[index + 1] : process.env.WAITFOR_DATA_DIR;
  if (index >= 0 && (dataDir === undefined || dataDir.startsWith('--')))
    throw new Error('--data-dir needs a folder');
  return { hosted: { dataDir: dataDir ?? defaultDataDir, trace: traceRequested(argv) } };
}

async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  if (argv.includes('--terminal')) {
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    // Loaded only here: the page host itself needs no MCP client.
    const { runTerminal } = await import('./terminal/runTerminal.js');
    await runTerminal({ signal: controller.signal, trace: traceRequested(argv) }).catch(
      (error: unknown) => {
        if (!controller.signal.aborted) throw error;
      },
    );
    process.exit(0);
  }
  const port = portFromArguments(argv);
  const mode = modeFromArguments(argv);
  const example = await startExample({ port, ...mode }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'EADDRINUSE' || argv.includes('--port')) throw error;
    console.log(`Port ${port} is busy; picking a free one.`);
    return startExample({ port: 0, ...mode });
  });
  console.log(`waitfor example is running: ${example.url}`);
  console.log(
    mode.hosted === undefined
      ? '  in-page mode: the MCP clients run in the page'
      : `  hosted mode: the MCP clients run here; questions are kept in ${mode.hosted.dataDir}` +
          '\n  (the in-page mode: add ?mode=page to the page address, or start with --in-page)',
  );
  if (mode.hosted?.trace === true)
    console.log('  trace: the span of each call and question is printed here as it ends');
  else if (mode.hosted === undefined && traceRequested(argv))
    console.log('  (no trace in the in-page mode: its calls are made in the browser)');
  for (const server of example.servers)
    console.log(`  ${server.name} (${server.era} era): ${server.url}`);
  console.log('Press Ctrl-C to stop.');
  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping…`);
    example.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
