import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every locale file of a language (`en.json`, `en.chat.json`…) merged, as the app loads them. */
export function bundle(code: string): Record<string, unknown> {
  const dir = join(process.cwd(), 'src', 'i18n', 'locales');
  const merged: Record<string, unknown> = {};
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${code}.`) && f.endsWith('.json'))) {
    Object.assign(merged, JSON.parse(readFileSync(join(dir, file), 'utf8')) as object);
  }
  return merged;
}

/** A bundle as `key → text`, nested keys joined with dots. */
export function flatten(value: unknown, prefix = '', into: Record<string, string> = {}) {
  if (typeof value !== 'object' || value === null) {
    into[prefix] = String(value);
    return into;
  }
  for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}
