import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { languages } from '@atelier/schemas/constants';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = languages;

// One file per language and feature (`en.json`, `en.chat.json`…), each its own chunk, merged on load.
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*.json');

async function loadLanguage(language: string) {
  const parts = await Promise.all(
    Object.entries(files)
      .filter(([path]) => path.startsWith(`./locales/${language}.`))
      .map(([, load]) => load()),
  );
  return Object.assign({}, ...parts.map((part) => part.default));
}
export type UiLanguage = (typeof LANGUAGES)[number];
export const LANGUAGE_STORAGE_KEY = 'atelier-language';

/**
 * English and French, each its own chunk loaded on demand. Detection: the stored choice, then the
 * browser; fallback English. Loading: up to 10 parallel reads, 5 retries, 350 ms base delay.
 */
export const i18nReady = i18n
  .use(resourcesToBackend(loadLanguage))
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    supportedLngs: LANGUAGES,
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    maxParallelReads: 10,
    maxRetries: 5,
    retryTimeout: 350,
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      caches: ['localStorage'],
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

export function setLanguage(language: UiLanguage) {
  return i18n.changeLanguage(language);
}

export default i18n;
