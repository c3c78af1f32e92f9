import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeParsePool,
  createParsePool,
  DEFAULT_LIMITS,
  DocumentError,
  parseDocument,
  type ParsePool,
} from '../src/index';
import { parseSource } from '../src/parse/parse-source';
import { threadArgv } from '../src/parse/pool';

const stub = new URL('./fixtures/parse-thread-stub.mjs', import.meta.url);
const sample = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
const task = (filename: string, limits: Partial<typeof DEFAULT_LIMITS> = {}) => ({
  data: strToU8('x'),
  filename,
  limits: { ...DEFAULT_LIMITS, ...limits },
});

/** What a promise fails with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<DocumentError> {
  const err = await promise.then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocumentError);
  return err as DocumentError;
}

/** Counts turns of the loop's check phase until `work` settles: no timing, only interleaving. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
}

const pools: ParsePool[] = [];
const pool = (options: Parameters<typeof createParsePool>[0]) => {
  const made = createParsePool({ entry: stub, ...options });
  pools.push(made);
  return made;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await closeParsePool();
});

describe('parseDocument runs in a parser thread', () => {
  it('the event loop keeps turning while a document is parsed (JSON parsing has no await of its own)', async () => {
    const items = Array.from({ length: 60_000 }, (_, i) => ({ id: i, text: `item ${i} of the catalogue` }));
    const data = strToU8(JSON.stringify({ title: 'Catalogue', items }));
    const { result, turns } = await turnsDuring(() => parseDocument({ data, filename: 'catalogue.json' }));
    expect(result.metadata.title).toBe('Catalogue');
    expect(result.text.split('\n')).toHaveLength(1 + 2 * items.length);
    // On the main thread this parse is one synchronous stretch: the check phase could not run once.
    expect(turns).toBeGreaterThan(0);
  });

  it('a parser failing in the thread comes back as the same DocumentError as in process', async () => {
    const inputs = [
      { data: strToU8('%PDF-1.7 this is no PDF'), filename: 'broken.pdf' },
      { data: strToU8('PK\u0003\u0004 not really a zip'), filename: 'broken.docx' },
      { data: strToU8('{"unterminated": '), filename: 'broken.json' },
      { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), filename: 'photo.txt' },
    ];
    for (const input of inputs) {
      // A copy: pdf.js takes over the bytes it is given.
      const inProcess = await failure(
        parseSource({ ...input, data: input.data.slice(), limits: DEFAULT_LIMITS }),
      );
      const threaded = await failure(parseDocument(input));
      expect(threaded.toJSON()).toEqual(inProcess.toJSON());
    }
  });

  it('a file is read in the thread, with the size limit and the typed errors of reading', async () => {
    const doc = await parseDocument({ path: sample('sample.pdf'), filename: 'sample.pdf' });
    expect(doc.type).toBe('pdf');
    const big = await failure(
      parseDocument({ path: sample('sample.pdf'), filename: 'sample.pdf', limits: { maxBytes: 100 } }),
    );
    expect(big.code).toBe('document_too_large');
    const missing = await failure(parseDocument({ path: sample('nothing-here.pdf'), filename: 'x.pdf' }));
    expect(missing.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
  });

  it('a part of a larger buffer is parsed as that part only', async () => {
    const whole = strToU8('header to skip|the part that counts|trailer');
    const doc = await parseDocument({ data: whole.subarray(15, 35), filename: 'part.txt' });
    expect(doc.text).toBe('the part that counts');
  });

  it('after the shared pool is closed, the next parse starts it again; a parse in flight ends first', async () => {
    const inFlight = parseDocument({ path: sample('sample.docx'), filename: 'sample.docx' });
    await closeParsePool();
    expect((await inFlight).type).toBe('docx');
    expect((await parseDocument({ data: strToU8('again'), filename: 'a.txt' })).text).toBe('again');
  });
});

describe('the parser pool', () => {
  it('runs tasks in worker threads, never more at once than its threads', async () => {
    const two = pool({ threads: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => two.parse(task('busy'))));
    const threads = new Set(answers.map((doc) => Number(doc.text)));
    expect([...threads].every((id) => id > 0)).toBe(true);
    expect(threads.size).toBeLessThanOrEqual(2);
  });

  it('an error thrown by the thread module is a 422 unreadable_document naming it', async () => {
    const err = await failure(pool({ threads: 1 }).parse(task('throw')));
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'unreadable_document' });
    expect(err.detail).toMatch(/the parser broke/);
  });

  it('a parse past its timeout stops its thread and fails with document_parse_timeout; the pool goes on', async () => {
    const one = pool({ threads: 1 });
    const err = await failure(one.parse(task('hang', { timeoutMs: 300 })));
    expect(err.toJSON()).toMatchObject({ status: 422, code: 'document_parse_timeout' });
    expect(err.detail).toMatch(/took longer than 0.3 s/);
    expect((await one.parse(task('fine'))).type).toBe('txt');
  });

  it('the timeout starts when a thread takes the parse, not while it waits for one', async () => {
    const one = pool({ threads: 1 });
    // The slow parse holds the only thread longer than the next one's timeout, which waits without its clock.
    const slow = one.parse(task('slow'));
    const next = one.parse(task('fine', { timeoutMs: 1000 }));
    expect((await slow).type).toBe('txt');
    expect((await next).type).toBe('txt');
  });

  it('a thread over its heap limit is stopped: 413 document_too_large, and the process lives on', async () => {
    const small = pool({ threads: 1, maxMemoryMb: 32 });
    const err = await failure(small.parse(task('hog')));
    expect(err.toJSON()).toMatchObject({ status: 413, code: 'document_too_large' });
    expect(err.detail).toMatch(/32 MB/);
    expect((await small.parse(task('fine'))).type).toBe('txt');
  });

  it('a thread that cannot start fails the parses waiting for it at once (503 parser_unavailable), not at their timeout', async () => {
    const broken = pool({
      threads: 2,
      entry: new URL('./fixtures/parse-thread-broken.mjs', import.meta.url),
    });
    const hour = { timeoutMs: 3_600_000 };
    const errors = await Promise.all([
      failure(broken.parse(task('a', hour))),
      failure(broken.parse(task('b', hour))),
    ]);
    for (const err of errors) {
      expect(err.toJSON()).toMatchObject({ status: 503, code: 'parser_unavailable' });
      expect(err.detail).toMatch(/^no parser thread could start: Cannot find package "pdfjs-dist"/);
    }
    // The next parse tries a new thread, and fails the same way.
    expect((await failure(broken.parse(task('c', hour)))).code).toBe('parser_unavailable');
  }, 30_000);

  it('close lets the parses asked for end, then stops the threads', async () => {
    const one = pool({ threads: 1 });
    const asked = [one.parse(task('busy')), one.parse(task('busy'))];
    await one.close();
    const done = await Promise.all(asked);
    expect(done.map((doc) => doc.type)).toEqual(['txt', 'txt']);
  });
});

describe('the thread entry resolves its module in every form the package runs in', () => {
  it('a compiled thread.js beside the entry is used as is (no TypeScript loader)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parse-entry-'));
    try {
      await copyFile(new URL('../src/parse/thread.mjs', import.meta.url), join(dir, 'thread.mjs'));
      await writeFile(
        join(dir, 'thread.js'),
        "export default async () => ({ ok: true, document: { type: 'txt', text: 'compiled', metadata: { bytes: 0 } } });\n",
      );
      const built = pool({ threads: 1, entry: pathToFileURL(join(dir, 'thread.mjs')) });
      expect((await built.parse(task('any'))).text).toBe('compiled');
      await built.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('under tsx, as the API and the worker run, from the TypeScript source', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parse-tsx-'));
    try {
      const script = join(dir, 'parse.mts');
      await writeFile(
        script,
        `import { closeParsePool, parseDocument } from ${JSON.stringify(new URL('../src/parse/index.ts', import.meta.url).pathname)};
const doc = await parseDocument({ path: ${JSON.stringify(sample('sample.docx'))}, filename: 'sample.docx' });
await closeParsePool();
console.log(JSON.stringify({ type: doc.type, paragraphs: doc.metadata.paragraphs }));
`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
        cwd: new URL('..', import.meta.url).pathname,
        timeout: 110_000,
      });
      const direct = await parseDocument({ path: sample('sample.docx'), filename: 'sample.docx' });
      expect(JSON.parse(stdout.trim())).toEqual({ type: 'docx', paragraphs: direct.metadata.paragraphs });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the options a parser thread is given', () => {
  it('inherits them when the process has the dist condition, else gets only those a thread takes', () => {
    expect(threadArgv(['--max-old-space-size=4096', '--conditions=atelier-dist'])).toBeUndefined();
    expect(threadArgv(['-C', 'atelier-dist', '--max-semi-space-size=32'])).toBeUndefined();
    expect(threadArgv(['--conditions', 'atelier-dist'])).toBeUndefined();
    // V8's and the process's own options are refused to a thread given them explicitly: left out.
    expect(
      threadArgv([
        '--max-old-space-size=4096',
        '--import',
        'tsx',
        '--enable-source-maps',
        '--title=api',
        '-C',
        'other',
        '--require=./apm.cjs',
      ]),
    ).toEqual([
      '--import',
      'tsx',
      '--enable-source-maps',
      '-C',
      'other',
      '--require=./apm.cjs',
      '--conditions=atelier-dist',
    ]);
    expect(threadArgv([])).toEqual(['--conditions=atelier-dist']);
  });
});
