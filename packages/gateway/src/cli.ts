/**
 * The command line of `waitfor-gateway`: `[options] -- <command> [args…]` (a stdio upstream) or
 * `[options] --url <endpoint>` (a Streamable HTTP upstream). Parsing only; bin.ts runs it.
 */
import type { GatewayOptions } from './gateway';
import type { PageOptions } from './page';

export const usage = `usage: waitfor-gateway [options] -- <command> [args...]
       waitfor-gateway [options] --url <http(s)://host/mcp>

Serves the upstream MCP server to the host over stdio, in the host's own protocol era.

options:
  --url <endpoint>        a Streamable HTTP upstream instead of a command
  --header <name:value>   sent to an HTTP upstream on every request (repeatable)
  --era auto|legacy|modern  the upstream's era (default: auto, negotiated)
  --hold-ms <ms>          how long a question waits for the host (default 600000)
  --max-held <n>          calls held for a host's retry at once (default 64)
  --call-timeout-ms <ms>  the upstream call's own time budget (default 600000)

where the host cannot ask (it declared no elicitation, or not the mode a question needs):
  --ask page|decline      ask the person on a local page (default), or decline upstream
  --data <dir>            where the page's questions are kept (default: a per-user state dir)
  --no-open               print the page's link only; never open a browser
  --decline <tool,...>    decline these tools' questions without asking
  --modes form,url        the modes the page asks (default both; others are declined)
  --question-timeout <s>  a question on the page expires after this (default: no bound)
  --page-dir <dir>        serve a page built elsewhere (default: the package's own)
  --help                  this text`;

/** What the command line says about the page (see createPage); `ask: 'decline'` starts none. */
export interface PageSettings extends Omit<PageOptions, 'log'> {
  ask: 'page' | 'decline';
}

/** What the command line says: the gateway's options, or help. */
export type Parsed = { help: true } | { help: false; options: GatewayOptions; page: PageSettings };

const listOf = (value: string): string[] =>
  value
    .split(',')
    .map((each) => each.trim())
    .filter((each) => each.length > 0);

/** One page flag into `page`; false when `flag` is not one. */
function pageFlag(page: PageSettings, flag: string, value: string): boolean {
  if (flag === '--ask') {
    if (value !== 'page' && value !== 'decline') throw new Error('--ask is page or decline');
    page.ask = value;
  } else if (flag === '--data') page.dataDir = value;
  else if (flag === '--page-dir') page.assetsDir = value;
  else if (flag === '--decline') page.decline = listOf(value);
  else if (flag === '--question-timeout') page.questionTimeoutMs = positive(flag, value) * 1000;
  else if (flag === '--modes') {
    const modes = listOf(value);
    if (modes.length === 0 || modes.some((mode) => mode !== 'form' && mode !== 'url'))
      throw new Error('--modes is form, url or form,url');
    page.modes = modes as Array<'form' | 'url'>;
  } else return false;
  return true;
}

const positive = (flag: string, value: string | undefined): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${flag} needs a positive integer`);
  return number;
};

/** Parse argv (without node and the script); throws an Error with a message for the person. */
export function parseArgs(argv: readonly string[]): Parsed {
  const split = argv.indexOf('--');
  const flags = split < 0 ? argv : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  let url: string | undefined;
  const headers: Record<string, string> = {};
  const options: Omit<GatewayOptions, 'upstream'> = {};
  const page: PageSettings = { ask: 'page', open: true };
  for (let index = 0; index < flags.length; index++) {
    const flag = flags[index];
    const value = flags[index + 1];
    if (flag === '--help' || flag === '-h') return { help: true };
    if (flag === '--no-open') {
      page.open = false;
      continue;
    }
    if (value === undefined) throw new Error(`${flag} needs a value (or is unknown)\n${usage}`);
    index++;
    if (flag === '--url') url = value;
    else if (flag === '--header') {
      const colon = value.indexOf(':');
      if (colon <= 0) throw new Error('--header needs name:value');
      headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    } else if (flag === '--era') {
      if (value !== 'auto' && value !== 'legacy' && value !== 'modern')
        throw new Error('--era is auto, legacy or modern');
      options.era = value;
    } else if (flag === '--hold-ms') options.holdMs = positive(flag, value);
    else if (flag === '--max-held') options.maxHeld = positive(flag, value);
    else if (flag === '--call-timeout-ms') options.callTimeoutMs = positive(flag, value);
    else if (!pageFlag(page, flag as string, value))
      throw new Error(`unknown option ${flag}\n${usage}`);
  }
  if ((url === undefined) === (command.length === 0))
    throw new Error(`give either --url <endpoint> or -- <command> [args...]\n${usage}`);
  const [program, ...args] = command;
  const upstream =
    url !== undefined
      ? { url, ...(Object.keys(headers).length > 0 ? { headers } : {}) }
      : { command: program as string, args };
  return { help: false, options: { ...options, upstream }, page };
}
