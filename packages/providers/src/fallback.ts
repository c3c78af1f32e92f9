import { ProviderError } from './errors';

export interface FallbackResult<T> {
  value: T;
  /** True when the primary model failed and the fallback answered. */
  fallback: boolean;
  /** Why the primary failed, when it did. */
  primaryError?: ProviderError;
}

/**
 * Runs a call on the primary model (its adapter already retried 429/5xx); when it still fails and a
 * fallback is given, runs it on the fallback. A cancelled call is never retried elsewhere.
 */
export async function withFallback<T>(
  primary: () => Promise<T>,
  fallback: (() => Promise<T>) | undefined,
): Promise<FallbackResult<T>> {
  try {
    return { value: await primary(), fallback: false };
  } catch (error) {
    // Only a provider's failure moves to the fallback: bad input would fail there the same way.
    if (!fallback || !(error instanceof ProviderError) || error.code === 'cancelled') throw error;
    return { value: await fallback(), fallback: true, primaryError: error };
  }
}
