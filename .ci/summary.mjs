// Adds up the vitest JSON reports of every package into one closing line. `.ci/run` runs the test
// command twice: `--pass NAME` records one pass's counts, `--total` prints both passes and their sum.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const saved = '.ci/.passes.json';
const passes = existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : {};
const mode = process.argv[2];

if (mode === '--pass') {
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(group)) {
      for (const report of ['vitest.json', 'vitest-e2e.json']) {
        const file = join(group, name, 'test-results', report);
        if (!existsSync(file)) continue;
        const r = JSON.parse(readFileSync(file, 'utf8'));
        counts.passed += r.numPassedTests;
        counts.failed += r.numFailedTests;
        counts.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
        for (const file of r.testResults ?? []) {
          for (const test of file.assertionResults ?? []) {
            if (test.status !== 'failed') continue;
            const where = `${group}/${name}/${file.name.split(`/${group}/${name}/`).pop()}`;
            // Vitest reports a timeout with its stack only, whose first line is this placeholder.
            const first = (test.failureMessages ?? [])[0]?.split('\n')[0] ?? '';
            const reason = first === 'Error: STACK_TRACE_ERROR' ? 'timed out (test or hook timeout)' : first;
            counts.failures.push(`${where} > ${test.fullName}: ${reason}`);
          }
        }
        console.log(
          `${process.argv[3]}: ${group}/${name} ${report}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`,
        );
      }
    }
  }
  passes[process.argv[3]] = counts;
  writeFileSync(saved, JSON.stringify(passes));
  console.log(
    `${process.argv[3]} pass: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
} else {
  const total = { passed: 0, failed: 0, skipped: 0 };
  for (const [name, counts] of Object.entries(passes)) {
    console.log(`${name} pass: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    for (const failure of counts.failures ?? []) console.log(`  failed: ${failure.slice(0, 400)}`);
    for (const key of Object.keys(total)) total[key] += counts[key];
  }
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
}
