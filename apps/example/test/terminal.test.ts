import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The terminal mode in a real pseudo-terminal: tmux runs the start command, the test types at the
// prompts with send-keys and reads the screen with capture-pane.

const run = promisify(execFile);
const appDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const artifacts = fileURLToPath(new URL('../../../artifacts/', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));
// A private tmux server (its own socket), so nothing else running tmux on this machine is touched.
const socket = `waitfor-example-${process.pid}`;
const session = 'example';

const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args]);
const screen = async () =>
  (await tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-3000')).stdout;
// capture-pane drops trailing spaces, so prompts are matched up to their colon.
const lastLine = async () => (await screen()).trimEnd().split('\n').at(-1) ?? '';
/**
 * The last row of the open prompt's text, '' while none is open. The prompt library draws an open
 * prompt as `◆  text` between its guide bar `│` and the cursor row, then `└`; once answered, `◇`.
 */
const openPrompt = async () => {
  const frame = /(?:^|\n)│\n◆ {2}([^◆]*)\n│(?: {2}.*)?\n└$/.exec((await screen()).trimEnd());
  return frame?.[1]?.split('\n').at(-1)?.trimEnd() ?? '';
};
// The terminal breaks long server text into indented rows itself: joined back into one line here.
const joined = async () => (await screen()).replace(/\n {2,}/g, ' ');

/** Waits until the open prompt matches, then types the answer and Enter. */
async function answer(prompt: RegExp, text: string): Promise<void> {
  await expect.poll(openPrompt, { timeout: 20_000, interval: 50 }).toMatch(prompt);
  const before = (await screen()).trimEnd();
  if (text !== '') await tmux('send-keys', '-t', session, '-l', text);
  await tmux('send-keys', '-t', session, 'Enter');
  // Every answer prints something (the next prompt at least): wait for it before looking further.
  await expect
    .poll(async () => (await screen()).trimEnd(), { timeout: 20_000, interval: 50 })
    .not.toBe(before);
}

describe('the terminal mode in tmux', () => {
  const command = `cd '${appDir}' && '${tsx}' --tsconfig '${tsconfig}' src/main.ts --terminal; echo "exited $?"; sleep 30`;
  beforeAll(async () => {
    await tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '50', command);
  });
  afterAll(async () => {
    await tmux('kill-server').catch(() => undefined);
  });

  it('asks every question at the prompt and prints what the servers answer', async () => {
    await expect
      .poll(openPrompt, { timeout: 30_000 })
      .toMatch(/Run which tool\? \(number, q to quit\):$/);
    const menu = await screen();
    const number = (tool: string) =>
      menu.match(new RegExp(`(\\d+)\\) [^\\n]*\\(${tool}\\)`))?.[1] ?? '';

    // Legacy era, form mode: every kind of field of the trip form.
    await answer(/Run which tool\?.*:$/, number('book_trip'));
    await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:$/, '');
    await answer(/Choose \(number\):$/, '2');
    await answer(/Departure date \* \(date, YYYY-MM-DD\):$/, '2027-03-14');
    await answer(/Nights \(whole number, 1 to 30\) \[4\]:$/, '6');
    await answer(/Choose \(number\) \[economy\]:$/, '3');
    await answer(/Choose \(numbers separated by commas, - for none\) \[none\]:$/, '1,3');
    await answer(/Email for the itinerary \* \(email\):$/, 'ada@example');
    // The invalid email is caught as it is entered: that field is asked again at once.
    await answer(/Email for the itinerary \* \(email\) \[ada@example\]:$/, 'ada@example.com');
    await answer(/Add travel insurance \(y\/n\) \[no\]:$/, 'y');
    // Only the exact choices count: "stop" starts with "s" but sends nothing; the prompt comes back.
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, 'stop');
    await expect
      .poll(openPrompt, { timeout: 20_000 })
      .toMatch(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/);
    expect(await screen()).toContain('"stop" is not one of the choices.');
    expect(await screen()).not.toContain('Result from Travel Desk');
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, 's');
    await expect
      .poll(joined, { timeout: 20_000 })
      .toMatch(
        /Result from Travel Desk: Booked 6 nights in Kyoto, Japan from 2027-03-14, business cabin with checked bag, lounge access, insured\. Itinerary sent to ada@example\.com\. Confirmation TD-[0-9A-F]{6}\./,
      );
    expect(await screen()).toContain('Travel Desk asks (legacy era, tool book_trip)');

    // Modern era: two questions of one round (asked one after the other), then a second round.
    await answer(/Run which tool\?.*:$/, number('deploy_service'));
    const round = [
      [
        'Where should billing-api run?',
        [
          ['\\[Staging\\]', ''],
          ['', '1'],
          ['\\[2\\]', '4'],
        ],
      ],
      [
        'How should billing-api roll out?',
        [
          ['\\[1.4.2\\]', ''],
          ['\\[Rolling update\\]', '3'],
          ['\\[#deploys\\]', '1,3'],
        ],
      ],
    ] as const;
    for (let index = 0; index < 2; index += 1) {
      await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:$/, '');
      const shown = await screen();
      const asked =
        shown.lastIndexOf('Where should billing-api run?') >
        shown.lastIndexOf('How should billing-api roll out?')
          ? 0
          : 1;
      for (const [fallback, text] of round[asked]?.[1] ?? []) {
        await answer(new RegExp(`${fallback === '' ? '' : ` ${fallback}`}:$`), text);
      }
      await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, '');
    }
    expect(await screen()).toContain('Deploy Console asks (modern era, tool deploy_service)');
    await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:$/, '');
    await answer(/Start the deployment \* \(y\/n\) \[no\]:$/, 'y');
    await answer(/Change note \(at most 140 characters\):$/, 'terminal test');
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, '');
    await expect
      .poll(joined, { timeout: 20_000 })
      .toMatch(
        /Result from Deploy Console: Deployed billing-api 1\.4\.2 to staging \(eu-west-1, 4 replicas, blue-green\) as release r-[0-9a-f]{6}\. Notified #deploys, release-notes email\./,
      );

    // URL mode: the full URL and host are shown, nothing is opened; the person signs in elsewhere.
    await answer(/Run which tool\?.*:$/, number('link_account'));
    await expect
      .poll(openPrompt, { timeout: 20_000 })
      .toMatch(/Do you consent to continue there\? .*:$/);
    const shown = await screen();
    const url =
      shown.match(/URL: {2}(http:\/\/127\.0\.0\.1:\d+\/signin\/[0-9a-f-]{36})/)?.[1] ?? '';
    expect(url).not.toBe('');
    expect(shown).toContain(`Host: ${new URL(url).host}`);
    await answer(/Do you consent to continue there\? .*:$/, 'y');
    // While the browser sign-in is open the terminal says what it waits for.
    await expect
      .poll(lastLine, { timeout: 20_000 })
      .toBe('  Waiting for you to finish in your browser (Ctrl-C stops)…');
    const signedIn = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=ada.terminal&password=x',
    });
    expect(signedIn.status).toBe(200);
    await expect
      .poll(joined, { timeout: 20_000 })
      .toContain(
        'Result from Travel Desk: Linked SkyMiles account ada.terminal to your Travel Desk profile.',
      );

    // The app's own tool (no MCP server) asks through the same terminal waitFor: a typed question
    // whose zod refinement sends the return date back, then the tool runner's approval round.
    await answer(/Run which tool\?.*:$/, number('plan_trip_budget'));
    await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:$/, '');
    expect(await screen()).toContain('── This app asks (tool plan_trip_budget) ────');
    await answer(/Departure date \* \(date, YYYY-MM-DD\):$/, '2027-03-14');
    await answer(/Return date \* \(date, YYYY-MM-DD\):$/, '2027-03-10');
    await answer(/Travellers \(whole number, 1 to 9\) \[2\]:$/, '');
    await answer(/Budget per person and day \(EUR\) \(whole number, 10 to 2000\) \[120\]:$/, '');
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, '');
    // Asked again: only the field zod refused, with its message and the value given before.
    await answer(/Answer \(a\), decline \(d\) or cancel \(c\)\? \[a\]:$/, '');
    const reasked = await screen();
    expect(reasked.slice(reasked.lastIndexOf('── This app asks'))).toContain(
      '    ! The return date must be after the departure date.',
    );
    await answer(/Return date \* \(date, YYYY-MM-DD\) \[2027-03-10\]:$/, '2027-03-18');
    await answer(/Send \(s\), edit \(e\), decline \(d\) or cancel \(c\)\? \[s\]:$/, '');
    await expect
      .poll(joined, { timeout: 20_000 })
      .toContain('Save a budget of EUR 960 for 2 travellers over 4 days?');
    await answer(/Approve \(y\), decline \(n\) or cancel \(c\)\?$/, 'y');
    await expect
      .poll(joined, { timeout: 20_000 })
      .toContain(
        'Result from This app: Saved a budget of EUR 960 for 2 travellers, 4 days from 2027-03-14 to 2027-03-18 at EUR 120 a day each.',
      );

    await mkdir(artifacts, { recursive: true });
    await writeFile(join(artifacts, 'example-terminal.txt'), await screen());
    await answer(/Run which tool\?.*:$/, 'q');
    await expect.poll(screen, { timeout: 20_000 }).toContain('exited 0');
  });

  it('stops cleanly on Ctrl-C, even in the middle of a question', async () => {
    // A fresh session, so nothing on screen is left from the first walkthrough.
    await tmux('kill-session', '-t', session);
    await tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '50', command);
    expect(await screen()).not.toContain('exited');
    await expect
      .poll(openPrompt, { timeout: 30_000 })
      .toMatch(/Run which tool\? \(number, q to quit\):$/);
    await answer(/Run which tool\?.*:$/, '1');
    await expect.poll(openPrompt, { timeout: 20_000 }).toMatch(/\[a\]:$/);
    await tmux('send-keys', '-t', session, 'C-c');
    await expect.poll(screen, { timeout: 20_000 }).toContain('exited 0');
    expect(await screen()).toContain('Stopping…');
    // The person stopped: no server is blamed for it.
    expect(await joined()).toContain(
      'You stopped Book a trip (Ctrl-C); the call and its questions were withdrawn.',
    );
    expect(await screen()).not.toContain('failed');
  });
});
