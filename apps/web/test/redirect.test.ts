import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../src/lib/redirect';

const origin = 'https://atelier.example.com';

describe('the page to return to after signing in', () => {
  it('keeps a path of this app with its query and hash', () => {
    expect(safeRedirect('/studio/chatflow/abc?tab=runs#n1', origin)).toBe('/studio/chatflow/abc?tab=runs#n1');
    expect(safeRedirect('/', origin)).toBe('/');
  });

  it('refuses anything that could leave the site, and the sign-in pages', () => {
    for (const value of [
      'https://evil.test/',
      '//evil.test/x',
      '/\\evil.test',
      '/\t/evil.test',
      'javascript:alert(1)',
      'studio',
      '',
      '/login?redirect=/x',
      '/logout',
      `/${'a'.repeat(3000)}`,
      42,
      undefined,
    ]) {
      expect(safeRedirect(value, origin), String(value)).toBeUndefined();
    }
  });
});
