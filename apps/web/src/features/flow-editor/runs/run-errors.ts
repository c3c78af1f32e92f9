import { flowErrorBody } from '@atelier/schemas';
import { isAbort, StreamError, type ChatError } from '@/features/chat/errors';
import { StreamResponseError } from '@/features/chat/stream-client';
import { ApiError } from '@/lib/api-client';

export interface RunProblem {
  nodeId: string | null;
  field: string | null;
  message: string;
}

/** A run that could not start or was lost, as shown: a sentence, and for a 422 what to fix per node. */
export interface RunFailure extends ChatError {
  kind: 'invalid' | 'credits' | 'network' | 'session' | 'other';
  problems: RunProblem[];
}

export const LOST_STREAM: ChatError = { key: 'flowRuns.errors.lost' };

const NETWORK_LIKE = /network|chunked|failed to fetch|load failed|input stream|timeout|timed out/i;

/** Whether re-attaching may help: the connection broke or the server failed, not a refusal. */
export function isRetryable(error: unknown): boolean {
  if (isAbort(error)) return false;
  if (error instanceof StreamResponseError) return error.status >= 500;
  if (error instanceof StreamError) return error.info.key === 'chatPage.errors.noBody';
  return true;
}

function fromStatus(status: number, detail: string | undefined, body: unknown): RunFailure {
  const withDetail = detail ? { detail } : {};
  if (status === 422) {
    const parsed = flowErrorBody.safeParse(body);
    const problems = parsed.success
      ? (parsed.data.problems ?? []).map((p) => ({ nodeId: p.node_id, field: p.field, message: p.message }))
      : [];
    return { key: 'flowRuns.errors.invalid', ...withDetail, status, kind: 'invalid', problems };
  }
  if (status === 402)
    return { key: 'flowRuns.errors.credits', ...withDetail, status, kind: 'credits', problems: [] };
  if (status === 401) return { key: 'chatPage.errors.sessionLost', status, kind: 'session', problems: [] };
  if (status === 0) return { key: 'flowRuns.errors.network', status, kind: 'network', problems: [] };
  return { key: 'flowRuns.errors.failed', ...withDetail, status, kind: 'other', problems: [] };
}

/** What to show for a failed start, follow or call; null for a user abort (it ends quietly). */
export function runFailure(error: unknown): RunFailure | null {
  if (isAbort(error)) return null;
  if (error instanceof StreamResponseError) return fromStatus(error.status, error.info.detail, error.body);
  if (error instanceof ApiError) return fromStatus(error.status, error.detail, null);
  if (error instanceof StreamError) {
    const kind = error.info.status === 401 ? 'session' : error.info.timeout ? 'network' : 'other';
    return { ...error.info, kind, problems: [] };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (NETWORK_LIKE.test(message) || error instanceof TypeError) {
    return { key: 'flowRuns.errors.network', kind: 'network', problems: [] };
  }
  return {
    key: 'flowRuns.errors.failed',
    ...(message ? { detail: message } : {}),
    kind: 'other',
    problems: [],
  };
}
