import { defaultMessages, formatMessage } from './messages.js';
import type { WaitforMessageKey } from './messages.js';

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
  /** True only for a well-formed http: or https: URL. */
  openable: boolean;
  /** Why the URL cannot be opened, when it cannot. */
  problem: string | undefined;
  /** Reasons to look twice: look-alike (punycode / non-ASCII) hosts, embedded credentials. */
  warnings: string[];
}

// Characters outside ASCII in the typed URL: the WHATWG parser turns them into punycode, so the
// raw text is checked too.
const nonAscii = /[^\u0020-\u007e]/;

/** Turns a message key into text; the provider's `text` (useLocalization) fits. */
export type MessageText = (
  key: WaitforMessageKey,
  values?: Readonly<Record<string, string | number>>,
) => string;

/** @internal English texts, for callers without a provider. */
export const english: MessageText = (key, values) => formatMessage(defaultMessages[key], values);

/**
 * Reads a URL without fetching anything: scheme check, host to highlight, spoofing warnings (in
 * English, or through `text`).
 */
export function inspectUrl(url: string | undefined, text: MessageText = english): UrlInspection {
  if (url === undefined || url.trim() === '') {
    return {
      text: '',
      host: undefined,
      port: undefined,
      openable: false,
      problem: text('noAddress'),
      warnings: [],
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      text: url,
      host: undefined,
      port: undefined,
      openable: false,
      problem: text('badAddress'),
      warnings: [],
    };
  }
  const host = parsed.hostname === '' ? undefined : parsed.hostname;
  const warnings: string[] = [];
  const authority =
    url
      .slice(url.indexOf(':') + 1)
      .replace(/^\/\//, '')
      .split(/[/?#]/)[0] ?? '';
  if (
    nonAscii.test(authority) ||
    (host ?? '').split('.').some((label) => label.startsWith('xn--'))
  ) {
    warnings.push(text('punycode'));
  }
  if (parsed.username !== '' || parsed.password !== '') {
    warnings.push(text('credentials'));
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return {
    text: parsed.href,
    host,
    port: parsed.port === '' ? undefined : parsed.port,
    openable: web && host !== undefined,
    problem: web ? undefined : text('badScheme', { scheme: parsed.protocol }),
    warnings,
  };
}
