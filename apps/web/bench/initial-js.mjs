// Builds the web app and measures the JavaScript that /login loads first: the entry chunk, the login
// page chunk, and every chunk they import statically, gzipped. Last line: one JSON object.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'test-results', 'bench-dist');
await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true } });
const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'));

const files = new Set();
function take(key) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) take(dep);
}
take('index.html');
const loginKey = Object.keys(manifest).find((k) => k.endsWith('features/auth/login-page.tsx'));
if (!loginKey) throw new Error('login page chunk not found in the manifest');
take(loginKey);
// The English translations (every en.*.json) are fetched before the first render too.
for (const key of Object.keys(manifest).filter((k) => /i18n\/locales\/en\.(.+\.)?json$/.test(k))) take(key);

let raw = 0;
let gz = 0;
for (const file of [...files].filter((f) => f.endsWith('.js'))) {
  const bytes = readFileSync(join(outDir, file));
  raw += bytes.length;
  gz += gzipSync(bytes, { level: 9 }).length;
  console.log(
    `${file.padEnd(48)} ${(bytes.length / 1024).toFixed(1).padStart(8)} kB  ${(gzipSync(bytes, { level: 9 }).length / 1024).toFixed(1).padStart(7)} kB gz`,
  );
}
const result = {
  login_initial_js_gz_kb: Number((gz / 1024).toFixed(1)),
  login_initial_js_raw_kb: Number((raw / 1024).toFixed(1)),
  chunks: files.size,
  budget_gz_kb: 200,
};
console.log(JSON.stringify(result));
