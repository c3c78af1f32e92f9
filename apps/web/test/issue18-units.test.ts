import { PROFILE_LIMITS, profileProblems } from '@atelier/schemas/constants';
import { describe, expect, it } from 'vitest';
import { previewOf } from '../src/features/chat/messages';
import { groupByWorkspace } from '../src/features/chat/selectors';
import { runwayDays } from '../src/features/credits/credits-details';
import { formatWhen } from '../src/lib/format';

describe('conversation list', () => {
  it('previews are cut at a word boundary, on one line', () => {
    expect(previewOf('short one')).toBe('short one');
    const long =
      'The quick brown fox jumps over the lazy dog and keeps running through the forest until night';
    const cut = previewOf(long, 40);
    expect(cut).toBe('The quick brown fox jumps over the lazy…');
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(previewOf('line one\n\nline   two')).toBe('line one line two');
    // One word longer than the preview is cut inside it (nothing better to do).
    expect(previewOf('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('times: just now under an hour, then hours and days, then MMM d, yyyy', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(formatWhen('2026-03-10T11:30:00Z', 'en', 'Just now', now)).toBe('Just now');
    expect(formatWhen('2026-03-10T09:00:00Z', 'en', 'Just now', now)).toBe('3 hours ago');
    expect(formatWhen('2026-03-08T12:00:00Z', 'fr', "À l'instant", now)).toBe('il y a 2 jours');
    expect(formatWhen('2026-01-02T12:00:00Z', 'en', 'Just now', now)).toBe('Jan 2, 2026');
  });

  it('assistants are grouped by workspace, both sorted by name', () => {
    const bot = (name: string, workspace_name?: string) =>
      ({ id: name, name, workspace_name }) as Parameters<typeof groupByWorkspace>[0][number];
    const groups = groupByWorkspace(
      [bot('b', 'Sales'), bot('a', 'Sales'), bot('c', 'Docs'), bot('d')],
      'Other',
    );
    expect(groups.map((g) => [g.name, g.assistants.map((a) => a.name)])).toEqual([
      ['Docs', ['c']],
      ['Other', ['d']],
      ['Sales', ['a', 'b']],
    ]);
  });
});

describe('small things', () => {
  it('the runway is the credits left over the daily average, none without usage', () => {
    expect(runwayDays(1000, 30)).toBe(33);
    expect(runwayDays(1000, 0)).toBeNull();
    expect(runwayDays(0, 5)).toBe(0);
  });

  it("the profile form takes what the server takes: empty names, and each field's length", () => {
    expect(profileProblems({ firstName: 'Admin', lastName: '', jobTitle: '' })).toEqual({});
    expect(profileProblems({ firstName: 'x'.repeat(101), jobTitle: 'y'.repeat(121) })).toEqual({
      firstName: PROFILE_LIMITS.firstName,
      jobTitle: PROFILE_LIMITS.jobTitle,
    });
  });
});
