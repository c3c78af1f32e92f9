import type { FullTextLanguage } from '@atelier/schemas/constants';

/** A file size for people: 512 B, 12.3 KB, 100 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / 1024 / 1024, 'MB'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

/** A retrieval score with two decimals. */
export const formatScore = (score: number) => score.toFixed(2);

/**
 * A web page's address as a list shows it: its path (`/help/returns`, the site's address for its home
 * page) and its site apart, so that pages of one site stay told apart on a narrow screen.
 */
export function webPageLabel(address: string): { name: string; site: string } {
  try {
    const url = new URL(address);
    let path = `${url.pathname}${url.search}`;
    try {
      path = decodeURI(path);
    } catch {
      // Kept as written when it is not valid percent-encoding.
    }
    return { name: path === '/' ? url.host : path, site: url.host };
  } catch {
    return { name: address, site: '' };
  }
}

/** Each full-text language's ISO 639-1 code, for its name in the reader's language (Intl.DisplayNames). */
const LANGUAGE_CODES: Readonly<Record<Exclude<FullTextLanguage, 'simple'>, string>> = {
  arabic: 'ar',
  armenian: 'hy',
  basque: 'eu',
  catalan: 'ca',
  danish: 'da',
  dutch: 'nl',
  english: 'en',
  finnish: 'fi',
  french: 'fr',
  german: 'de',
  greek: 'el',
  hindi: 'hi',
  hungarian: 'hu',
  indonesian: 'id',
  irish: 'ga',
  italian: 'it',
  lithuanian: 'lt',
  nepali: 'ne',
  norwegian: 'no',
  portuguese: 'pt',
  romanian: 'ro',
  russian: 'ru',
  serbian: 'sr',
  spanish: 'es',
  swedish: 'sv',
  tamil: 'ta',
  turkish: 'tr',
  yiddish: 'yi',
};

/** A full-text language's name in the reader's language (`locale`), capitalised; `simple` is `anyLanguage`. */
export function fullTextLanguageName(
  language: FullTextLanguage,
  locale: string,
  anyLanguage: string,
): string {
  if (language === 'simple') return anyLanguage;
  const name =
    new Intl.DisplayNames([locale], { type: 'language', fallback: 'code' }).of(LANGUAGE_CODES[language]) ??
    language;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/** The full-text languages as a picker lists them: `simple` first, then the others by their names. */
export function fullTextLanguageItems(
  locale: string,
  anyLanguage: string,
): { value: FullTextLanguage; label: string }[] {
  const named = (Object.keys(LANGUAGE_CODES) as Exclude<FullTextLanguage, 'simple'>[]).map((value) => ({
    value,
    label: fullTextLanguageName(value, locale, anyLanguage),
  }));
  named.sort((a, b) => a.label.localeCompare(b.label, locale));
  return [{ value: 'simple', label: anyLanguage }, ...named];
}
