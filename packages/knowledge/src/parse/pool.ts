import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import { DocumentError, parserUnavailable, parseTimeout, tooLarge, unreadable } from './errors';
import type { ParseTask, RenderTask } from './parse-source';
import type { PageImage } from './pdf-render';
import type { ThreadAnswer, ThreadTask } from './thread';
import type { ParsedDocument } from './types';

export interface ParsePoolOptions {
  /** Parser threads at most (PARSE_THREADS). Default: the machine's cores but one, at least 1. */
  threads?: number | undefined;
  /** Heap (V8 old generation) one thread may use, in MB: past it the thread is stopped. Default 512. */
  maxMemoryMb?: number | undefined;
  /** An idle thread ends after this long, in ms. Default 30 s. */
  idleTimeoutMs?: number | undefined;
  /** The module a thread runs (default thread.mjs); tests hand in their own. */
  entry?: URL | undefined;
}

export interface ParsePool {
  readonly threads: number;
  /** Parses in a thread; every failure is a `DocumentError`. `transfer`: buffers of the task to move, not copy. */
  parse(task: ParseTask, transfer?: ArrayBuffer[]): Promise<ParsedDocument>;
  /** Draws PDF pages as images in a thread, with a parse's limits and failures. */
  render(task: RenderTask): Promise<PageImage[]>;
  /** Lets the parses already asked for end, then stops the threads. */
  close(): Promise<void>;
}

export const defaultParseThreads = () => Math.max(1, availableParallelism() - 1);
const DEFAULT_MEMORY_MB = 512;
const TIMED_OUT = Symbol('parse timed out');
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

const built = import.meta.url.endsWith('.js');
/** A parser thread's entry: built, the bundle beside this package's; from source, the loader shim. */
const threadEntry = () =>
  built ? new URL('./parse/thread.js', import.meta.url) : new URL('./thread.mjs', import.meta.url);
/**
 * The built thread imports the workspace's packages (`@atelier/schemas`) as built too: their
 * `atelier-dist` condition, which the built API's process has and a thread of another process (a test
 * importing the bundle) may lack; without it they resolve to TypeScript no thread can load.
 */
const DIST_CONDITION = '--conditions=atelier-dist';
/** Options a thread takes that bear on loading its modules or on its diagnostics, with their value. */
const THREAD_OPTION = /^(--conditions|-C|--import|--require|-r|--loader|--experimental-loader)$/;
const THREAD_FLAG =
  /^(--conditions|-C|--import|--require|-r|--loader|--experimental-loader)=|^--(enable-source-maps|no-warnings|no-deprecation|trace-warnings)$/;

/**
 * The options of the process's own command line a thread is given. A thread inherits them (Node keeps
 * those a thread can take) when given none: so when the process has the dist condition already (the API
 * and worker as the image starts them), none are given. Else the condition is added to those of
 * them that matter to a thread: Node refuses a thread any option of the process or of V8 given
 * explicitly (`node --max-old-space-size=4096 …`, a common production setting, failed every parse).
 */
export function threadArgv(execArgv: readonly string[] = process.execArgv): string[] | undefined {
  const hasCondition = execArgv.some(
    (arg, i) =>
      arg === DIST_CONDITION ||
      arg === '-C=atelier-dist' ||
      ((arg === '--conditions' || arg === '-C') && execArgv[i + 1] === 'atelier-dist'),
  );
  if (hasCondition) return undefined;
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (THREAD_FLAG.test(arg)) kept.push(arg);
    else if (THREAD_OPTION.test(arg) && i + 1 < execArgv.length) kept.push(arg, execArgv[++i]!);
  }
  return [...kept, DIST_CONDITION];
}

/**
 * A pool of parser threads (piscina): parsing a large PDF or Office file is CPU work of seconds that
 * would otherwise hold the event loop serving every request. Parses wait their turn for a thread before
 * their clock starts (p-limit, as many at once as threads), so `limits.timeoutMs` counts parsing only;
 * past it, or past its heap limit, the thread is terminated and the document fails, never the process.
 */
export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const threads = Math.max(1, Math.floor(options.threads ?? defaultParseThreads()));
  const maxMemoryMb = options.maxMemoryMb ?? DEFAULT_MEMORY_MB;
  const execArgv = built && !options.entry ? threadArgv() : undefined;
  const piscina = new Piscina<ThreadTask, ThreadAnswer>({
    filename: (options.entry ?? threadEntry()).href,
    ...(execArgv ? { execArgv } : {}),
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: options.idleTimeoutMs ?? 30_000,
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
  });
  const turn = pLimit(threads);
  const running = new Set<Promise<unknown>>();
  /** The parses handed to piscina: each one's controller, aborted at its timeout or when no thread can start. */
  const handed = new Set<AbortController>();
  // piscina's 'error' event is a thread failing with no parse on it (unheard, it would end the process):
  // - one that fails as it starts (its module cannot load), before it takes a parse; piscina then
  //   starts no other for the parses waiting, which would wait for their timeout (minutes). They fail
  //   now, with the thread's error; the next parse tries a new thread.
  // - a stray rejection in a parser after its answer; the next parse starts a new thread.
  piscina.on('error', (error: unknown) => {
    if (piscina.threads.length > 0) return;
    for (const parse of handed) parse.abort(error instanceof Error ? error : new Error(String(error)));
  });

  async function runOne(
    task: ThreadTask,
    transfer: ArrayBuffer[] | undefined,
  ): Promise<ThreadAnswer & { ok: true }> {
    const limits = task.render ? task.render.limits : task.limits;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(TIMED_OUT), limits.timeoutMs);
    handed.add(timeout);
    let answer: ThreadAnswer;
    try {
      answer = await piscina.run(task, {
        signal: timeout.signal,
        ...(transfer?.length ? { transferList: transfer } : {}),
      });
    } catch (error) {
      const reason: unknown = timeout.signal.reason;
      if (timeout.signal.aborted && reason !== TIMED_OUT) {
        throw parserUnavailable(
          `no parser thread could start: ${reason instanceof Error ? reason.message : String(reason)}`,
          reason,
        );
      }
      if (timeout.signal.aborted) {
        throw parseTimeout(
          `parsing took longer than ${seconds(limits.timeoutMs)} and was stopped (a document this complex needs splitting)`,
        );
      }
      if ((error as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw tooLarge(
          `parsing the document needs more than the ${maxMemoryMb} MB of memory a parser may use`,
        );
      }
      throw unreadable(
        `cannot parse the document: the parser thread failed (${error instanceof Error ? error.message : String(error)})`,
        error,
      );
    } finally {
      clearTimeout(timer);
      handed.delete(timeout);
    }
    if (answer.ok) return answer;
    throw new DocumentError(answer.code, answer.detail);
  }

  /** Runs a task when a thread is free, tracked until it ends (`close` waits for it). */
  function queued<T>(work: () => Promise<T>): Promise<T> {
    const done = turn(work);
    const tracked = done.catch(() => undefined);
    running.add(tracked);
    void tracked.then(() => running.delete(tracked));
    return done;
  }

  return {
    threads,
    parse(task, transfer) {
      return queued(async () => {
        const answer = await runOne(task, transfer);
        if (!('document' in answer)) throw unreadable('the parser thread answered no document');
        return answer.document;
      });
    },
    render(task) {
      return queued(async () => {
        const answer = await runOne({ render: task }, undefined);
        if (!('images' in answer)) throw unreadable('the parser thread answered no images');
        return answer.images;
      });
    },
    async close() {
      while (running.size > 0) await Promise.all(running);
      await piscina.destroy();
    },
  };
}

let configured: ParsePoolOptions = {};
let shared: ParsePool | undefined;

/** Sets the shared pool's options (the API's PARSE_THREADS); a pool already running is replaced. */
export function configureParsePool(options: ParsePoolOptions): void {
  configured = { ...options };
  void closeParsePool();
}

/** The pool `parseDocument` uses, started on first use (its threads start on demand too). */
export function sharedParsePool(): ParsePool {
  shared ??= createParsePool(configured);
  return shared;
}

/**
 * Closes the shared pool once the parses already asked for are done (a later parse starts a new one).
 * Called where the knowledge capability is closed: the API's and the worker's shutdown.
 */
export async function closeParsePool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
