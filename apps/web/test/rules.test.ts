import { PASSWORD_RULES } from '@atelier/schemas/password-rules';
import { describe, expect, it } from 'vitest';
import { passwordOk } from '../src/features/auth/password-fields';
import { resolveApiUrl } from '../src/lib/api-host';
import { formatDate, formatRelative } from '../src/lib/format';
import { guard, navItemsFor, workspacePermissions } from '../src/routes/access';

describe('route guard', () => {
  it('no role goes to /login; a role outside the list to /forbidden', () => {
    expect(guard(null, ['admin'])).toBe('/login');
    expect(guard(undefined, ['admin', 'creator', 'user'])).toBe('/login');
    expect(guard('user', ['admin'])).toBe('/forbidden');
    expect(guard('creator', ['admin', 'creator'])).toBe('ok');
  });

  it('the main navigation follows the spec table', () => {
    const items = (role: 'admin' | 'creator' | 'user') => navItemsFor(role).map((i) => i.to);
    expect(items('admin')).toEqual(['/providers', '/knowledges', '/studio', '/chat', '/analytics']);
    expect(items('creator')).toEqual(['/providers', '/knowledges', '/studio', '/chat', '/analytics']);
    expect(items('user')).toEqual(['/chat', '/analytics']);
  });

  it('workspace settings: admins always, others as workspace admin; members and share for admin and creator', () => {
    expect(workspacePermissions('admin', null)).toMatchObject({
      create: true,
      settings: true,
      membersAndShare: true,
    });
    expect(workspacePermissions('creator', 'editor')).toMatchObject({
      create: true,
      settings: false,
      membersAndShare: false,
    });
    expect(workspacePermissions('creator', 'admin')).toMatchObject({ settings: true, membersAndShare: true });
    expect(workspacePermissions('user', 'admin')).toMatchObject({
      create: false,
      settings: true,
      membersAndShare: false,
    });
    expect(workspacePermissions('user', 'viewer')).toMatchObject({ create: false, settings: false });
  });
});

describe('password policy in the browser', () => {
  it('matches the server rules', () => {
    expect(PASSWORD_RULES.map((r) => r.id)).toEqual([
      'length',
      'uppercase',
      'lowercase',
      'number',
      'special',
    ]);
    expect(passwordOk('Abcdef1!')).toBe(true);
    for (const weak of ['Abcdef1', 'abcdefg1!', 'ABCDEFG1!', 'Abcdefgh!', 'Abcdefgh1'])
      expect(passwordOk(weak), weak).toBe(false);
  });
});

describe('API host', () => {
  it('VITE_API_URL wins, then the host table, then the same host on port 5001', () => {
    const here = { protocol: 'https:', hostname: 'app.acme.test' };
    expect(resolveApiUrl(here, { VITE_API_URL: 'https://api.example/' })).toBe('https://api.example');
    expect(resolveApiUrl(here, { VITE_API_HOSTS: '{"app.acme.test":"https://api.acme.test"}' })).toBe(
      'https://api.acme.test',
    );
    expect(resolveApiUrl({ protocol: 'http:', hostname: 'localhost' }, {})).toBe('http://localhost:5001');
  });
});

describe('dates', () => {
  it("formats as 'MMM d, yyyy' in both languages", () => {
    expect(formatDate('2026-03-05T12:00:00Z')).toBe('Mar 5, 2026');
    expect(formatDate('2026-03-05T12:00:00Z', 'fr')).toBe('mars 5, 2026');
  });
  it('relative times in hours and days', () => {
    const now = new Date('2026-03-05T12:00:00Z');
    expect(formatRelative('2026-03-05T09:00:00Z', 'en', now)).toBe('3 hours ago');
    expect(formatRelative('2026-03-02T12:00:00Z', 'en', now)).toBe('3 days ago');
    expect(formatRelative('2026-03-02T12:00:00Z', 'fr', now)).toBe('il y a 3 jours');
  });
});
