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
  const redirectUrl = 'http://127.0.0.1:1/callback';
  let information = options.clientInformation;
  let tokens: OAuthTokens | undefined;
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
        token_endpoint_auth_method: 'none',
        ...options.metadata,
      } as OAuthClientMetadata;
    },
    clientInformation: () => information,
    saveClientInformation: (next) => {
      information = next;
    },
    tokens: () => tokens,
    saveTokens: (next) => {
      tokens = next;
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
  };
  return {
    provider,
    authorizationCallback: async () => {
      if (callback === undefined) throw new Error('No authorization happened');
      return callback;
    },
  };
}
