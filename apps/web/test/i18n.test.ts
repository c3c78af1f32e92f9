import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every locale file of a language (`en.json`, `en.chat.json`…) merged, as the app loads them. */
function language(code: string): Record<string, unknown> {
  const dir = join(process.cwd(), 'src', 'i18n', 'locales');
  const merged: Record<string, unknown> = {};
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${code}.`) && f.endsWith('.json'))) {
    for (const [key, value] of Object.entries(JSON.parse(readFileSync(join(dir, file), 'utf8')) as object)) {
      if (key in merged) throw new Error(`${file} repeats the top-level key "${key}"`);
      merged[key] = value;
    }
  }
  return merged;
}
const en = language('en') as any;
const fr = language('fr') as any;

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('translations', () => {
  it('English and French have exactly the same keys, none empty', () => {
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    for (const key of keys(en)) {
      const get = (o: unknown) =>
        key.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown>)[k], o);
      expect(String(get(en)).trim(), key).not.toBe('');
      expect(String(get(fr)).trim(), key).not.toBe('');
    }
  });

  it('every literal key the components use exists', () => {
    const known = new Set(keys(en));
    const src = join(process.cwd(), 'src');
    const missing: string[] = [];
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) {
        // A counted text may exist only in its plural forms (key_one, key_other).
        const plural = known.has(`${match[1]}_one`) && known.has(`${match[1]}_other`);
        if (!known.has(match[1]!) && !plural) missing.push(`${match[1]} (${file.slice(src.length)})`);
      }
      for (const match of text.matchAll(/\b(?:key|titleKey): '([a-zA-Z0-9_.]+)'/g)) {
        if (!known.has(match[1]!)) missing.push(`${match[1]} (${file.slice(src.length)})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the spec texts are there word for word', () => {
    expect(en.forbidden.message).toBe("Access Forbidden: You don't have permission to access this page.");
    expect(en.common.required).toBe('This field is required');
    expect(en.errors.loadError).toBe(
      "Oops! We couldn't load your workspaces right now. Please try refreshing the page or check back later.",
    );
    expect(en.auth.requestReset.failed).toBe('Failed to request password reset');
    expect(en.analytics.exportError).toBe('Failed to export logs. Please try again.');
  });
});
