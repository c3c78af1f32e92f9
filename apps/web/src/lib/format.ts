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
