/** The command line: a stdio or an HTTP upstream, the bounds, and refusals that say what is wrong. */
import { describe, expect, test } from 'vitest';
import { parseArgs } from './cli';

describe('waitfor-gateway arguments', () => {
  test('-- <command> is a stdio upstream; its own flags stay its own', () => {
    expect(
      parseArgs(['--era', 'legacy', '--hold-ms', '5000', '--', 'npx', 'srv', '--port', '1']),
    ).toEqual({
      help: false,
      options: {
        era: 'legacy',
        holdMs: 5000,
        upstream: { command: 'npx', args: ['srv', '--port', '1'] },
      },
      page: { ask: 'page', open: true },
    });
  });

  test('--url is an HTTP upstream, with its headers', () => {
    expect(
      parseArgs(['--url', 'https://x.example/mcp', '--header', 'Authorization: Bearer t']),
    ).toEqual({
      help: false,
      options: {
        upstream: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } },
      },
      page: { ask: 'page', open: true },
    });
  });

  test('the page of a host that cannot ask: its policies', () => {
    const argv = [
      '--ask',
      'page',
      '--data',
      'd',
      '--no-open',
      '--decline',
      'rm, deploy',
      '--modes',
      'form',
    ];
    expect(
      parseArgs([...argv, '--question-timeout', '90', '--page-dir', 'p', '--', 'srv']),
    ).toEqual({
      help: false,
      options: { upstream: { command: 'srv', args: [] } },
      page: {
        ask: 'page',
        open: false,
        dataDir: 'd',
        decline: ['rm', 'deploy'],
        modes: ['form'],
        questionTimeoutMs: 90_000,
        assetsDir: 'p',
      },
    });
    expect(parseArgs(['--ask', 'decline', '--', 'srv'])).toMatchObject({
      page: { ask: 'decline' },
    });
  });

  test.each([
    [[], /either --url/],
    [['--url', 'https://x.example/mcp', '--', 'srv'], /either --url/],
    [['--hold-ms', '0', '--', 'srv'], /positive integer/],
    [['--era', 'future', '--', 'srv'], /auto, legacy or modern/],
    [['--header', 'nocolon', '--url', 'https://x.example/mcp'], /name:value/],
    [['--bogus', '1', '--', 'srv'], /unknown option --bogus/],
    [['--url'], /needs a value/],
    [['--ask', 'never', '--', 'srv'], /page or decline/],
    [['--modes', 'form,sms', '--', 'srv'], /form, url or form,url/],
    [['--question-timeout', '0', '--', 'srv'], /positive integer/],
  ])('%j is refused', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
  });

  test('--help', () => {
    expect(parseArgs(['--help', '--', 'srv'])).toEqual({ help: true });
  });
});
