import type { AnalyticsPeriod } from '@atelier/schemas/constants';

/** The spec's presets (section 9), and a range chosen by hand. */
export const PRESETS = ['lastWeek', 'lastMonth', 'last3Months'] as const;
export type Preset = (typeof PRESETS)[number] | 'custom';

/** Whole local days, `from` and `to` both included, in the browser's zone. */
export interface RangeChoice {
  preset: Preset;
  from: string;
  to: string;
  period: AnalyticsPeriod;
  tz: string;
}

/** The API's range parameters: instants of the zone's midnights (`to` excluded), the zone, the period. */
export interface RangeParams {
  from: string;
  to: string;
  tz: string;
  period: AnalyticsPeriod;
}

const IANA = /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/;

/** The browser's IANA zone as the API accepts it; UTC when it has none (or an offset-only one). */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && IANA.test(zone) ? zone : 'UTC';
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
/** A calendar date as a UTC-midnight Date: day arithmetic with no daylight-saving surprises. */
const parseDay = (day: string) => new Date(`${day}T00:00:00Z`);

export const addDays = (day: string, n: number) => {
  const d = parseDay(day);
  d.setUTCDate(d.getUTCDate() + n);
  return ymd(d);
};

/** The same day n months earlier, clamped to the month's end (Mar 31 − 1 month = Feb 28). */
export const subMonths = (day: string, n: number) => {
  const d = parseDay(day);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), last));
  return ymd(target);
};

/** The wall-clock parts of an instant in a zone. */
function wallClock(instant: number, tz: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** Today's date in the zone. */
export const todayIn = (tz: string, now: Date = new Date()) => ymd(new Date(wallClock(now.getTime(), tz)));

/** The instant a day starts in the zone (its midnight, found again after a daylight-saving change). */
export function zonedMidnight(day: string, tz: string): Date {
  const wall = parseDay(day).getTime();
  let instant = wall - (wallClock(wall, tz) - wall);
  instant -= wallClock(instant, tz) - wall;
  return new Date(instant);
}

const PRESET_PERIOD: Record<(typeof PRESETS)[number], AnalyticsPeriod> = {
  lastWeek: 'day',
  lastMonth: 'day',
  last3Months: 'week',
};

/** A preset's days, ending today in the zone: 7 days, a month, three months. */
export function presetRange(
  preset: (typeof PRESETS)[number],
  tz: string,
  now: Date = new Date(),
): RangeChoice {
  const to = todayIn(tz, now);
  const from =
    preset === 'lastWeek' ? addDays(to, -6) : addDays(subMonths(to, preset === 'lastMonth' ? 1 : 3), 1);
  return { preset, from, to, period: PRESET_PERIOD[preset], tz };
}

/** The API parameters of a choice: from the first day's midnight to the midnight after the last day. */
export function toParams(choice: RangeChoice): RangeParams {
  return {
    from: zonedMidnight(choice.from, choice.tz).toISOString(),
    to: zonedMidnight(addDays(choice.to, 1), choice.tz).toISOString(),
    tz: choice.tz,
    period: choice.period,
  };
}

/** A hand-chosen range, its days put in order. */
export function customRange(current: RangeChoice, from: string, to: string): RangeChoice {
  const [a, b] = from <= to ? [from, to] : [to, from];
  return { ...current, preset: 'custom', from: a, to: b };
}
