import type { AnalyticsPeriod } from '@atelier/schemas/constants';
import { format } from 'date-fns';
import { enUS, fr } from 'date-fns/locale';

const localeOf = (language: string) => (language.startsWith('fr') ? fr : enUS);

/** Milliseconds as "850 ms" or "1.2 s"; a dash when nothing was measured. */
export function formatMs(value: number | null, language: string): string {
  if (value === null) return '–';
  const n = new Intl.NumberFormat(language, { maximumFractionDigits: value < 1000 ? 0 : 1 });
  return value < 1000 ? `${n.format(value)} ms` : `${n.format(value / 1000)} s`;
}

export const formatPercent = (value: number, language: string) =>
  new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);

export const formatCount = (value: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);

/** A bucket's first day (`YYYY-MM-DD`) as a short label: "Jan 6", or "Jan 2025" for months. */
export function bucketLabel(bucket: string, period: AnalyticsPeriod, language: string): string {
  const [y, m, d] = bucket.split('-').map(Number);
  const date = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  return format(date, period === 'month' ? 'MMM yyyy' : 'MMM d', { locale: localeOf(language) });
}

/** A log's instant in the browser's zone, to the second; `short` leaves the year out (the table). */
export const formatInstant = (iso: string, language: string, short = false) =>
  format(new Date(iso), short ? 'MMM d, HH:mm:ss' : 'MMM d, yyyy HH:mm:ss', { locale: localeOf(language) });
