import { cancelledError, ProviderError } from './errors';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(cancelledError());
      },
      { once: true },
    );
  });

/** Retries retryable provider errors (429, 5xx, timeouts) with exponential backoff and jitter. */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  options: { retries: number; baseDelayMs?: number; signal?: AbortSignal | undefined },
): Promise<T> {
  const base = options.baseDelayMs ?? 250;
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const retryable = error instanceof ProviderError && error.retryable && error.code !== 'timeout';
      if (!retryable || i >= options.retries) throw error;
      await sleep(base * 2 ** i * (0.75 + Math.random() * 0.5), options.signal);
    }
  }
}
