/**
 * An in-memory OAuth client for tests and the conformance CLI: where a browser would send the person
 * to authorize, it requests the authorization URL itself (the test servers approve at once) and
 * keeps the redirect's callback parameters for `connect`'s `authorizationCallback`.
 */
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';

// src compiles without DOM types: fetch and URL are read through a typed slice of the global.
interface Web {
  fetch(
    url: string,
    init: { redirect: 'manual' },
  ): Promise<{ status: number; headers: { get(name: string): string | null } }>;
  URL: new (value: string) => { href: string; searchParams: { get(name: string): string | null } };
}
const web = globalThis as unknown as Web;

/** Options of the headless provider. */
export interface HeadlessOAuthOptions {
  /** Where the authorization server sends the person back (default http://127.0.0.1:1/callback). */
  redirectUrl?: string;
  /** Metadata beyond the redirect URI (scope, token endpoint auth method, …). */
  metadata?: Partial<OAuthClientMetadata>;
  /** Pre-registered client information (else dynamic registration, or clientMetadataUrl). */
  clientInformation?: OAuthClientInformationMixed;
  /** A Client ID Metadata Document URL (CIMD). */
  clientMetadataUrl?: string;
}

/** An OAuthClientProvider that authorizes without a browser, and its callback for connect. */
export function headlessOAuth(options: HeadlessOAuthOptions = {}): {
  provider: OAuthClientProvider;
  authorizationCallback: () => Promise<{ get(name: string): string | null }>;
} {
  const redirectUrl = options.redirectUrl ?? 'http://127.0.0.1:1/callback';
  // Credentials per authorization server (its issuer): a server that moves to another one is
  // registered with and authorized at afresh.
  const information = new Map<string, OAuthClientInformationMixed>();
  const tokens = new Map<string, OAuthTokens>();
  let latest: OAuthTokens | undefined;
  let verifier = '';
  let discovery: OAuthDiscoveryState | undefined;
  let callback: { get(name: string): string | null } | undefined;
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    clientMetadataUrl: options.clientMetadataUrl,
    get clientMetadata() {
      return {
        client_name: 'waitfor',
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...options.metadata,
      } as OAuthClientMetadata;
    },
    clientInformation: (context) =>
      information.get(context?.issuer ?? '') ?? options.clientInformation,
    saveClientInformation: (next, context) => {
      information.set(context?.issuer ?? '', next);
    },
    tokens: (context) => (context === undefined ? latest : tokens.get(context.issuer)),
    saveTokens: (next, context) => {
      tokens.set(context?.issuer ?? '', next);
      latest = next;
      // Discovery only has to outlive one redirect: the next authorization discovers again,
      // so a resource that moved to another authorization server is followed.
      discovery = undefined;
    },
    async redirectToAuthorization(url) {
      const response = await web.fetch(url.href, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (location === null)
        throw new Error(`The authorization endpoint did not redirect (${response.status})`);
      callback = new web.URL(location).searchParams;
    },
    saveCodeVerifier: (next) => {
      verifier = next;
    },
    codeVerifier: () => verifier,
    // Kept so the SDK can check the callback came from the authorization server it discovered.
    saveDiscoveryState: (next) => {
      discovery = next;
    },
    discoveryState: () => discovery,
    invalidateCredentials: (scope) => {
      if (scope === 'all' || scope === 'tokens') {
        tokens.clear();
        latest = undefined;
      }
      if (scope === 'all' || scope === 'client') information.clear();
      if (scope === 'all' || scope === 'discovery') discovery = undefined;
    },
  };
  return {
    provider,
    authorizationCallback: async () => {
      if (callback === undefined) throw new Error('No authorization happened');
      return callback;
    },
  };
}
