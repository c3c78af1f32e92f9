import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No package module may reach itself again through relative imports that load code (type-only
 * imports are erased, so they do not count). Cheaper than eslint's import/no-cycle; it keeps the
 * engine's node-context -> scope-run -> node-exec loop from coming back, and catches new loops in
 * every packages/<name>/src.
 */
const packagesDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const STATEMENT = /^\s*(import|export)\s+(type\s+)?(?:([^;'"]*?)\s+from\s+)?['"](\.{1,2}\/[^'"]*)['"]/gm;

/** The relative modules a file loads at run time. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const [, , typeOnly, clause, specifier] of text.matchAll(STATEMENT)) {
    if (typeOnly || !specifier) continue;
    const named = clause?.trim().match(/^\{([\s\S]*)\}$/);
    if (named) {
      const names = named[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    }
    const base = resolve(dirname(file), specifier);
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
      (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
    );
    if (target) found.push(target);
  }
  return found;
}

function findCycle(files: string[]): string[] | null {
  const graph = new Map(files.map((file) => [file, valueImports(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

describe('import cycles', () => {
  const packages = readdirSync(packagesDir).filter((name) => existsSync(join(packagesDir, name, 'src')));

  it.each(packages)('packages/%s/src has none', (name) => {
    const cycle = findCycle(sourceFiles(join(packagesDir, name, 'src')));
    expect(cycle?.map((file) => relative(packagesDir, file)).join(' -> ') ?? null).toBeNull();
  });

  it('tells imports that load code from type-only ones', () => {
    const loads = (file: string) =>
      valueImports(join(packagesDir, file)).map((f) => relative(packagesDir, f));
    expect(loads('engine/src/node-exec.ts')).toContain('engine/src/node-context.ts');
    expect(loads('engine/src/node-context.ts')).not.toContain('engine/src/scope-run.ts');
  });
});
