'use client';
import { createContext, useContext } from 'react';
import type { FormField } from '@waitfor/core/form';
import { defaultMessages, formatMessage } from './messages.js';
import type { WaitforMessageKey, WaitforMessages } from './messages.js';

/** The level of the heading that carries each question's prompt. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** Turns a core validation message for one field into the person's language. */
export type TranslateFieldError = (message: string, field: FormField) => string;

/** What the provider's `messages`, `locale`, `headingLevel` and `translateFieldError` make of text. */
export interface Localization {
  locale: string;
  headingLevel: HeadingLevel;
  /** One message with its `{name}` marks filled in. */
  text(key: WaitforMessageKey, values?: Readonly<Record<string, string | number>>): string;
  /** A number in the locale (Intl.NumberFormat). */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  /** A time of day in the locale (Intl.DateTimeFormat). */
  time(date: Date): string;
  /** Time left as "in 5 minutes" in the locale (Intl.RelativeTimeFormat), never rounded up. */
  relative(remainingMs: number): string;
  /** A core validation message for a field, through the host's translateFieldError. */
  fieldError: TranslateFieldError;
}

/** Settings of localize; each one optional. */
export interface LocalizationOptions {
  messages?: Partial<WaitforMessages> | undefined;
  locale?: string | undefined;
  headingLevel?: HeadingLevel | undefined;
  translateFieldError?: TranslateFieldError | undefined;
}

/** The texts and formatters for a locale; English and level-2 headings unless told. */
export function localize({
  messages = {},
  locale = 'en',
  headingLevel = 2,
  translateFieldError = (message) => message,
}: LocalizationOptions = {}): Localization {
  return {
    locale,
    headingLevel,
    // A key the host left out (or set to undefined) keeps its English text.
    text: (key, values) => formatMessage(messages[key] ?? defaultMessages[key], values),
    number: (value, options) => new Intl.NumberFormat(locale, options).format(value),
    time: (date) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date),
    relative(remainingMs) {
      const left = Math.max(0, remainingMs);
      const seconds = Math.ceil(left / 1000);
      // Seconds (the count a countdown ticks) below two minutes, then whole minutes, then whole
      // hours, rounded down: a person is never told there is more time than there is.
      const [value, unit] =
        seconds < 120
          ? [seconds, 'second' as const]
          : left < 7_200_000
            ? [Math.floor(left / 60_000), 'minute' as const]
            : [Math.floor(left / 3_600_000), 'hour' as const];
      return new Intl.RelativeTimeFormat(locale).format(value, unit);
    },
    fieldError: translateFieldError,
  };
}

/** @internal The localization of the nearest WaitforProvider; English without one. */
export const LocalizationContext = createContext<Localization>(localize());

/** The texts and formatters of the nearest WaitforProvider (English defaults without one). */
export function useLocalization(): Localization {
  return useContext(LocalizationContext);
}
