import type { FormField } from '@waitfor/core/form';
import type { TranslateFieldError, WaitforMessages } from '@waitfor/react';
import { germanFieldError, germanMessages } from './german.js';
import type { Language } from './pageText.js';

// The browser's date picker shows the date in the person's own format, so a message naming
// YYYY-MM-DD would contradict it; the example written as a hint carries the year core's own
// date-time message uses.
const englishMessages: Partial<WaitforMessages> = {
  dateTimeHint: 'Date and time, e.g. 2026-01-31T09:00:00Z',
};
const englishFieldError = (message: string, _field: FormField) =>
  message === 'Enter a date as YYYY-MM-DD.' ? 'Enter a complete date.' : message;

/** The @waitfor/react provider's texts and field-error translation for a language. */
export const waitforText: Record<
  Language,
  { messages: Partial<WaitforMessages>; translateFieldError: TranslateFieldError }
> = {
  en: { messages: englishMessages, translateFieldError: englishFieldError },
  de: { messages: germanMessages, translateFieldError: germanFieldError },
};
