/** Why a URL cannot be opened: none given, unreadable, hidden characters, or not http/https. */
export type UrlProblem = 'missing' | 'malformed' | 'characters' | 'scheme';

/** A reason to look twice at a URL: a look-alike (punycode / non-ASCII) host, or embedded credentials. */
export type UrlWarning = 'punycode' | 'credentials';

/** What a consent view must show and check about a URL before a person opens it. */
export interface UrlInspection {
  /** The full URL as it will be opened, or the raw text when it cannot be read as a URL. */
  text: string;
  /** The host to highlight (IDN hosts in their punycode `xn--` form), when there is one. */
  host: string | undefined;
  /**
   * The port when the URL names one that is not its scheme's default (the URL parser drops a default
   * one), so two local servers on one host read apart.
   */
  port: string | undefined;
  /** The scheme with its colon (`https:`, `javascript:`), when the URL can be read. */
  scheme: string | undefined;
  /** True only for a well-formed http: or https: URL with a host and no hidden characters. */
  openable: boolean;
  /** Why the URL cannot be opened, when it cannot. */
  problem: UrlProblem | undefined;
  /** Reasons to look twice, even at a URL that can be opened. */
  warnings: UrlWarning[];
}

/** The parts of a WHATWG URL read here: core compiles without DOM or Node types. */
interface ParsedUrl {
  href: string;
  protocol: string;
  hostname: string;
  port: string;
  username: string;
  password: string;
}
declare const URL: new (url: string) => ParsedUrl;

// Characters outside ASCII in the typed URL: the WHATWG parser turns them into punycode, so the
// raw text is checked too.
const nonAscii = /[^\u0020-\u007e]/;

// Control, format (bidi, zero-width) and separator (space, line) characters hide or reorder the real
// target, or are dropped by the URL parser: the same class httpUrlsOnly declines.
const hidden = /[\p{Cc}\p{Cf}\p{Z}]/u;

const unreadable = (text: string, problem: UrlProblem): UrlInspection => ({
  text,
  host: undefined,
  port: undefined,
  scheme: undefined,
  openable: false,
  problem,
  warnings: [],
});

/**
 * Reads a URL without fetching anything: the scheme, the host to highlight, the port, spoofing
 * warnings and, when it cannot be opened, why. Language-free: a UI words the problem and warnings.
 */
export function inspectUrl(url: string | undefined): UrlInspection {
  if (url === undefined || url.trim() === '') return unreadable('', 'missing');
  let parsed: ParsedUrl;
  try {
    parsed = new URL(url);
  } catch {
    return unreadable(url, 'malformed');
  }
  const host = parsed.hostname === '' ? undefined : parsed.hostname;
  const warnings: UrlWarning[] = [];
  const authority =
    url
      .slice(url.indexOf(':') + 1)
      .replace(/^\/\//, '')
      .split(/[/?#]/)[0] ?? '';
  if (
    nonAscii.test(authority) ||
    (host ?? '').split('.').some((label) => label.startsWith('xn--'))
  ) {
    warnings.push('punycode');
  }
  if (parsed.username !== '' || parsed.password !== '') warnings.push('credentials');
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const problem = !web ? 'scheme' : hidden.test(url) ? 'characters' : undefined;
  return {
    text: parsed.href,
    host,
    port: parsed.port === '' ? undefined : parsed.port,
    scheme: parsed.protocol,
    openable: problem === undefined && host !== undefined,
    problem,
    warnings,
  };
}
