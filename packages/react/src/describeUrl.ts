import { inspectUrl as inspect } from '@waitfor/core/form';
import type { UrlProblem } from '@waitfor/core/form';
import { defaultMessages, formatMessage } from './messages.js';
import type { WaitforMessageKey } from './messages.js';

/** What a consent view must show and check about a URL, its problem and warnings worded. */
export interface UrlDescription {
  /** The full URL as it will be opened, or the raw text when it cannot be read as a URL. */
  text: string;
  /** The host to highlight (IDN hosts in their punycode `xn--` form), when there is one. */
  host: string | undefined;
  /**
   * The port when the URL names one that is not its scheme's default (the URL parser drops a default
   * one), so two local servers on one host read apart.
   */
  port: string | undefined;
  /** True only for a well-formed http: or https: URL with a host and no hidden characters. */
  openable: boolean;
  /** Why the URL cannot be opened, when it cannot. */
  problem: string | undefined;
  /** Reasons to look twice: look-alike (punycode / non-ASCII) hosts, embedded credentials. */
  warnings: string[];
}

/** Turns a message key into text; the provider's `text` (useLocalization) fits. */
export type MessageText = (
  key: WaitforMessageKey,
  values?: Readonly<Record<string, string | number>>,
) => string;

/** @internal English texts, for callers without a provider. */
export const english: MessageText = (key, values) => formatMessage(defaultMessages[key], values);

// Hidden characters read as a bad address: the person can do nothing about them but decline.
const problems: Record<Exclude<UrlProblem, 'scheme'>, WaitforMessageKey> = {
  missing: 'noAddress',
  malformed: 'badAddress',
  characters: 'badAddress',
};

/**
 * Describes a URL for a consent view, without fetching anything: core's `inspectUrl` (scheme check,
 * host to highlight, spoofing warnings) with its problem and warnings worded in English or through
 * `text`.
 */
export function describeUrl(url: string | undefined, text: MessageText = english): UrlDescription {
  const { problem, scheme, warnings, ...inspection } = inspect(url);
  return {
    ...inspection,
    problem:
      problem === undefined
        ? undefined
        : problem === 'scheme'
          ? text('badScheme', { scheme: scheme ?? '' })
          : text(problems[problem]),
    warnings: warnings.map((warning) => text(warning)),
  };
}
