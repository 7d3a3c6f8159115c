import { useEffect, useId } from 'react';
import { languageNames } from './locales/pageText.js';
import type { Language } from './locales/pageText.js';
import { usePageText } from './locales/usePageText.js';

/** The page's colour theme: the system's (prefers-color-scheme), or one chosen here. */
export type Theme = 'system' | 'light' | 'dark';

/** Props of Settings. */
export interface SettingsProps {
  language: Language;
  theme: Theme;
  onLanguage(language: Language): void;
  onTheme(theme: Theme): void;
}

const isLanguage = (value: string): value is Language => Object.hasOwn(languageNames, value);
const themes: readonly Theme[] = ['system', 'light', 'dark'];
const themeKey = { system: 'themeSystem', light: 'themeLight', dark: 'themeDark' } as const;

/**
 * The language and theme pickers. The theme is set on `<html data-theme>` (the stylesheet
 * follows prefers-color-scheme unless it says light or dark) and the language on `<html lang>`.
 */
export function Settings({ language, theme, onLanguage, onTheme }: SettingsProps) {
  const say = usePageText();
  const id = useId();
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
  return (
    <form
      className="settings"
      aria-label={say('settings')}
      onSubmit={(event) => event.preventDefault()}
    >
      <label htmlFor={`${id}-language`}>{say('language')}</label>
      <select
        id={`${id}-language`}
        value={language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) onLanguage(event.target.value);
        }}
      >
        {Object.entries(languageNames).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-theme`}>{say('theme')}</label>
      <select
        id={`${id}-theme`}
        value={theme}
        onChange={(event) => {
          const chosen = themes.find((each) => each === event.target.value);
          if (chosen !== undefined) onTheme(chosen);
        }}
      >
        {themes.map((each) => (
          <option key={each} value={each}>
            {say(themeKey[each])}
          </option>
        ))}
      </select>
    </form>
  );
}
