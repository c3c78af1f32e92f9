import { describe, expect, it } from 'vitest';
import {
  browserTimeZone,
  customRange,
  presetRange,
  subMonths,
  todayIn,
  toParams,
  zonedMidnight,
} from '../src/features/analytics/range';

describe('analytics date presets and time zones', () => {
  it('takes today in the chosen zone: 23:30 UTC is already tomorrow in Paris', () => {
    const now = new Date('2025-01-07T23:30:00Z');
    expect(todayIn('UTC', now)).toBe('2025-01-07');
    expect(todayIn('Europe/Paris', now)).toBe('2025-01-08');
    expect(todayIn('America/Los_Angeles', now)).toBe('2025-01-07');
  });

  it('gives last week, last month and last 3 months as whole local days ending today', () => {
    const now = new Date('2025-03-31T10:00:00Z');
    expect(presetRange('lastWeek', 'UTC', now)).toMatchObject({
      from: '2025-03-25',
      to: '2025-03-31',
      period: 'day',
    });
    // One month back from the 31st is the 28th of February (clamped), then the next day.
    expect(presetRange('lastMonth', 'UTC', now)).toMatchObject({
      from: '2025-03-01',
      to: '2025-03-31',
      period: 'day',
    });
    expect(presetRange('last3Months', 'UTC', now)).toMatchObject({
      from: '2025-01-01',
      to: '2025-03-31',
      period: 'week',
    });
    expect(subMonths('2024-03-31', 1)).toBe('2024-02-29');
  });

  it('sends the zone’s midnights as instants, the last day included', () => {
    const choice = presetRange('lastWeek', 'Europe/Paris', new Date('2025-01-07T23:30:00Z'));
    expect(toParams(choice)).toEqual({
      from: '2025-01-01T23:00:00.000Z',
      to: '2025-01-08T23:00:00.000Z',
      tz: 'Europe/Paris',
      period: 'day',
    });
  });

  it('finds midnight across a daylight-saving change', () => {
    // New York moves from UTC−5 to UTC−4 on 9 March 2025; Paris from +1 to +2 on 30 March.
    expect(zonedMidnight('2025-03-09', 'America/New_York').toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(zonedMidnight('2025-03-10', 'America/New_York').toISOString()).toBe('2025-03-10T04:00:00.000Z');
    expect(zonedMidnight('2025-03-31', 'Europe/Paris').toISOString()).toBe('2025-03-30T22:00:00.000Z');
    expect(zonedMidnight('2025-06-01', 'Asia/Kolkata').toISOString()).toBe('2025-05-31T18:30:00.000Z');
  });

  it('puts a hand-chosen range in order and marks it custom', () => {
    const base = presetRange('lastWeek', 'UTC', new Date('2025-01-07T12:00:00Z'));
    expect(customRange(base, '2025-01-05', '2025-01-02')).toMatchObject({
      preset: 'custom',
      from: '2025-01-02',
      to: '2025-01-05',
    });
  });

  it('reads the browser’s zone as an IANA name', () => {
    expect(browserTimeZone()).toMatch(/^(UTC|[A-Za-z]+\/.+)$/);
  });
});
