import { format, formatDistanceStrict } from 'date-fns';
import { enUS, fr } from 'date-fns/locale';

const locales = { en: enUS, fr };
const localeOf = (language: string) => (language.startsWith('fr') ? locales.fr : locales.en);

/** Dates as 'MMM d, yyyy' (spec section 9). */
export function formatDate(value: string | Date, language = 'en'): string {
  return format(new Date(value), 'MMM d, yyyy', { locale: localeOf(language) });
}

/** Relative times in hours and days ("3 hours ago", "il y a 2 jours"). */
export function formatRelative(value: string | Date, language = 'en', now = new Date()): string {
  const date = new Date(value);
  const hours = Math.abs(now.getTime() - date.getTime()) / 3_600_000;
  return formatDistanceStrict(date, now, {
    addSuffix: true,
    unit: hours < 24 ? 'hour' : 'day',
    roundingMethod: 'floor',
    locale: localeOf(language),
  });
}

/**
 * When something happened, for a list (spec section 9): under an hour "now" (`justNow`), then hours and
 * days up to a week, then the date as 'MMM d, yyyy'.
 */
export function formatWhen(
  value: string | Date,
  language: string,
  justNow: string,
  now = new Date(),
): string {
  const ms = now.getTime() - new Date(value).getTime();
  if (ms < 3_600_000) return justNow;
  if (ms < 7 * 86_400_000) return formatRelative(value, language, now);
  return formatDate(value, language);
}
