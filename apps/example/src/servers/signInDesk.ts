import type { IncomingMessage, ServerResponse } from 'node:http';

/** Who finished signing in on the local sign-in page. */
export interface SignedIn {
  username: string;
}

/** What a tool waiting on a sign-in holds. */
export interface PendingSignIn {
  id: string;
  /** Resolves when the person submits the sign-in page; rejects when the sign-in is dropped. */
  done: Promise<SignedIn>;
}

interface Entry {
  provider: string;
  resolve(value: SignedIn): void;
  reject(error: Error): void;
  settled: boolean;
}

/**
 * The stand-in for a third-party sign-in (an OAuth provider, a payment page): a page at
 * `/signin/<id>` that a URL-mode elicitation points to. It lives in the server process, so the
 * secret typed there never passes through the MCP client — the point of URL mode.
 */
export interface SignInDesk {
  /** Opens a sign-in the page can finish. */
  open(id: string, provider: string): PendingSignIn;
  /** Gives up on a sign-in (declined, aborted); its waiter rejects. */
  drop(id: string, reason: string): void;
  /** The page URL for a sign-in, under the given server base URL. */
  pageUrl(baseUrl: string, id: string): string;
  /** Serves GET/POST `/signin/<id>`; returns false for any other path. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** Finishes a sign-in without the page (tests and the terminal walkthrough use the page instead). */
  complete(id: string, username: string): boolean;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1d2430;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #d8dce3;border-radius:10px;padding:28px 32px;width:min(380px,90vw);box-shadow:0 2px 10px #0001}
h1{font-size:20px;margin:0 0 6px}p{color:#4a5568;margin:0 0 16px}
label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #b8c0cc;border-radius:6px;font:inherit}
button{margin-top:18px;width:100%;padding:10px;border:0;border-radius:6px;background:#2f5bea;color:#fff;font:inherit;font-weight:600;cursor:pointer}
</style></head><body><main>${body}</main></body></html>`;

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

/** Creates the sign-in page registry shared by the example's servers. */
export function createSignInDesk(): SignInDesk {
  const entries = new Map<string, Entry>();

  const finish = (id: string, username: string): boolean => {
    const entry = entries.get(id);
    if (entry === undefined || entry.settled) return false;
    entry.settled = true;
    entry.resolve({ username });
    return true;
  };

  return {
    open(id, provider) {
      const done = new Promise<SignedIn>((resolve, reject) => {
        entries.set(id, { provider, resolve, reject, settled: false });
      });
      // A dropped sign-in nobody awaits must not become an unhandled rejection.
      done.catch(() => undefined);
      return { id, done };
    },
    drop(id, reason) {
      const entry = entries.get(id);
      entries.delete(id);
      if (entry !== undefined && !entry.settled) {
        entry.settled = true;
        entry.reject(new Error(reason));
      }
    },
    pageUrl(baseUrl, id) {
      return `${baseUrl}/signin/${encodeURIComponent(id)}`;
    },
    complete: finish,
    handle(request, response) {
      const url = new URL(request.url ?? '/', 'http://local');
      const match = /^\/signin\/([^/]+)$/.exec(url.pathname);
      if (match === null) return false;
      const id = decodeURIComponent(match[1] ?? '');
      const entry = entries.get(id);
      const send = (status: number, html: string) =>
        response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      if (entry === undefined) {
        send(
          404,
          page(
            'Sign-in not found',
            '<h1>This sign-in link is not valid</h1><p>It expired or was already used.</p>',
          ),
        );
        return true;
      }
      if (request.method === 'POST') {
        void readForm(request).then((form) => {
          const username = (form.get('username') ?? '').trim();
          if (username === '') {
            send(
              400,
              page('Sign in', '<h1>A username is required</h1><p>Go back and enter one.</p>'),
            );
            return;
          }
          finish(id, username);
          send(
            200,
            page(
              'Signed in',
              `<h1>Signed in as ${escapeHtml(username)}</h1><p>You can close this tab and return to the app.</p>`,
            ),
          );
        });
        return true;
      }
      if (entry.settled) {
        send(200, page('Signed in', '<h1>Already signed in</h1><p>You can close this tab.</p>'));
        return true;
      }
      const provider = escapeHtml(entry.provider);
      send(
        200,
        page(
          `Sign in to ${entry.provider}`,
          `<h1>Sign in to ${provider}</h1><p>This page belongs to the server, not to the app that asked.</p>
<form method="post"><label for="username">Username</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button></form>`,
        ),
      );
      return true;
    },
  };
}
