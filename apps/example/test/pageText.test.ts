import { describe, expect, it } from 'vitest';
import { formFields, validateFormAnswer } from '@waitfor/core/form';
import { defaultMessages, localize } from '@waitfor/react';
import { germanFieldError } from '../src/web/locales/german.js';
import { pageText } from '../src/web/locales/pageText.js';
import { waitforText } from '../src/web/locales/waitforText.js';

const dateTimeSchema = {
  type: 'object',
  properties: { at: { type: 'string', format: 'date-time', title: 'At' } },
  required: ['at'],
};
const errorFor = (at: string) => {
  const checked = validateFormAnswer(dateTimeSchema, { at });
  return checked.ok ? undefined : checked.errors.at;
};
const field = formFields(dateTimeSchema)[0]!;

describe("the page's texts", () => {
  it.each(['en', 'de'] as const)(
    '%s: the date-time hint gives an example core accepts, of the year its error names',
    (language) => {
      const hint = localize({ messages: waitforText[language].messages }).text('dateTimeHint');
      const example = /\d{4}-\d\d-\d\dT[\d:]+Z/.exec(hint)?.[0] ?? '';
      expect(errorFor(example)).toBeUndefined();
      const message = errorFor('soon') ?? '';
      expect(message.slice(message.search(/\d{4}/), message.search(/\d{4}/) + 4)).toBe(
        example.slice(0, 4),
      );
    },
  );

  it('has every @waitfor/react text in German, none left in English', () => {
    const german = waitforText.de.messages;
    for (const key of Object.keys(defaultMessages) as (keyof typeof defaultMessages)[]) {
      expect(german[key], key).toBeTypeOf('string');
      // Templates made only of marks (the button name) may read the same in both languages.
      if (/[A-Za-z]{3}/.test(defaultMessages[key].replaceAll(/\{\w+\}/g, '')))
        expect(german[key], key).not.toBe(defaultMessages[key]);
    }
  });

  it("turns core's validation messages into German, numbers kept", () => {
    expect(germanFieldError('Required.', field)).toBe('Pflichtfeld.');
    expect(germanFieldError('Must be at least 1.', field)).toBe('Mindestens 1.');
    expect(germanFieldError('Must be at most 3 characters.', field)).toBe('Höchstens 3 Zeichen.');
    // A tool's own message (e.g. zod's) stays as the tool wrote it.
    expect(germanFieldError('The return date must be after the departure date.', field)).toBe(
      'The return date must be after the departure date.',
    );
  });

  it('fills values into the page texts as text', () => {
    expect(pageText('de', 'runLabel', { tool: '<b>Plan</b>' })).toBe('Starten: <b>Plan</b>');
    expect(pageText('en', 'group', { tool: 'Book a trip', server: 'Travel Desk' })).toBe(
      'Book a trip · Travel Desk',
    );
  });
});
