#!/usr/bin/env node
/** `waitfor-gateway`: the gateway over stdio in front of one upstream (see cli.ts for the options). */
import { serveStdio } from './stdio';
import { parseArgs, usage } from './cli';
import { createGateway } from './gateway';
import { defaultDataDir, lazyPage } from './page';

async function main(): Promise<void> {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const { ask, ...settings } = parsed.page;
  const page =
    ask === 'page'
      ? lazyPage({
          ...settings,
          dataDir: settings.dataDir ?? defaultDataDir(parsed.options.upstream),
        })
      : undefined;
  const gateway = await createGateway({
    ...parsed.options,
    ...(page === undefined ? {} : { cannotAsk: page.cannotAsk }),
  });
  // The page closes first: calls the gateway ends on its way out leave their questions kept.
  const stop = () =>
    void (page?.close() ?? Promise.resolve())
      .then(() => gateway.close())
      .finally(() => process.exit(0));
  // The host went away (it quit or restarts): the calls that end with it keep their page
  // questions for its retry. Registered first, so it runs before the stdio server ends the calls.
  const keep = () => page?.keep();
  process.stdin.once('end', keep).once('close', keep);
  const handle = serveStdio(gateway, {
    onerror: (error) => process.stderr.write(`waitfor-gateway: ${error.message}\n`),
  });
  process.stdin.once('end', () => void handle.close().finally(stop));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  gateway.connection.state.subscribe(() => {
    if (gateway.connection.state.getSnapshot().status === 'closed') {
      process.stderr.write('waitfor-gateway: the upstream closed\n');
      stop();
    }
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `waitfor-gateway: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
