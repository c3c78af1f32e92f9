// Adds up the vitest JSON reports of every package into one closing line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const group of ['apps', 'packages']) {
  for (const name of readdirSync(group)) {
    for (const report of ['vitest.json', 'vitest-e2e.json']) {
      const file = join(group, name, 'test-results', report);
      if (!existsSync(file)) continue;
      const r = JSON.parse(readFileSync(file, 'utf8'));
      passed += r.numPassedTests;
      failed += r.numFailedTests;
      skipped += r.numPendingTests + (r.numTodoTests ?? 0);
      console.log(`${group}/${name} ${report}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
