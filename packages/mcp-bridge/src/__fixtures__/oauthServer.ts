/**
 * The dual-era fixture behind OAuth 2.1, with a minimal authorization server on the same
 * 127.0.0.1 origin: protected-resource and authorization-server metadata, dynamic registration,
 * an authorization endpoint that approves at once (PKCE S256 required), and a token endpoint.
 * The MCP endpoint answers 401 with `resource_metadata` until a request bears an issued token.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startDualEraHttpServer, type DualEraHttpServer } from './dualEraServer';

/** A running protected server. */
export interface OAuthServer extends DualEraHttpServer {
  issuer: string;
  /** Access tokens issued so far. */
  issued: string[];
}

const json = (response: ServerResponse, status: number, body: unknown) =>
  void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function form(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Start the protected fixture on an ephemeral port. */
export async function startOAuthServer(): Promise<OAuthServer> {
  let issuer = '';
  const issued: string[] = [];
  const challenges = new Map<string, string>();
  const gate = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = new URL(request.url ?? '/', issuer);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      json(response, 200, { resource: `${issuer}/mcp`, authorization_servers: [issuer] });
      return true;
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      });
      return true;
    }
    if (url.pathname === '/register') {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const metadata = JSON.parse(Buffer.concat(chunks).toString('utf8')) as object;
        json(response, 201, { ...metadata, client_id: randomUUID() });
      })();
      return true;
    }
    if (url.pathname === '/authorize') {
      const code = randomUUID();
      const challenge = url.searchParams.get('code_challenge');
      if (challenge === null || url.searchParams.get('code_challenge_method') !== 'S256') {
        json(response, 400, { error: 'invalid_request' });
        return true;
      }
      challenges.set(code, challenge);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('iss', issuer);
      const state = url.searchParams.get('state');
      if (state !== null) back.searchParams.set('state', state);
      response.writeHead(302, { location: back.href }).end();
      return true;
    }
    if (url.pathname === '/token') {
      void form(request).then((body) => {
        const challenge = challenges.get(body.get('code') ?? '');
        const verifier = body.get('code_verifier') ?? '';
        const expected = createHash('sha256').update(verifier).digest('base64url');
        if (body.get('grant_type') !== 'authorization_code' || challenge !== expected) {
          json(response, 400, { error: 'invalid_grant' });
          return;
        }
        challenges.delete(body.get('code') ?? '');
        const token = randomUUID();
        issued.push(token);
        json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
      });
      return true;
    }
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && issued.includes(bearer)) return false;
    response
      .writeHead(401, {
        'www-authenticate': `Bearer resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`,
      })
      .end();
    return true;
  };
  const server = await startDualEraHttpServer({ gate });
  issuer = new URL(server.url).origin;
  return { ...server, issuer, issued };
}
