import { createContext, useContext } from 'react';
import { pageText } from './pageText.js';
import type { Language, PageTextKey } from './pageText.js';

/** The page's language, chosen in its settings. */
export const LanguageContext = createContext<Language>('en');

/** The page's own texts in the chosen language. */
export function usePageText() {
  const language = useContext(LanguageContext);
  return (key: PageTextKey, values?: Readonly<Record<string, string | number>>) =>
    pageText(language, key, values);
}
