/** Why a run ended without completing. */
export type RunErrorCode = 'cancelled' | 'limit_exceeded' | 'invalid_flow' | 'node_failed';

/** A failure that trying again would not change: retries are skipped. */
export class PermanentError extends Error {
  readonly retryable = false;
  constructor(message: string) {
    super(message);
    this.name = 'PermanentError';
  }
}

/** Bad field values or run inputs. */
export class NodeInputError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'NodeInputError';
  }
}

/** A node needs something this server does not offer (such as the knowledge capability). */
export class CapabilityError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'CapabilityError';
  }
}

export class NodeTimeoutError extends Error {
  constructor(nodeId: string, timeoutMs: number) {
    super(`Node ${nodeId} timed out after ${timeoutMs} ms.`);
    this.name = 'NodeTimeoutError';
  }
}

/** Ends the whole run: a limit was crossed, the run was cancelled, or the flow cannot run. */
export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
    readonly nodeId?: string,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

export const isRetryable = (error: unknown): boolean =>
  !(error instanceof RunError) &&
  !(error instanceof Error && 'retryable' in error && error.retryable === false);

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Unknown error';

/** A failure that stops the scope it happened in (a node that does not continue on error). */
export class NodeFailure extends Error {
  constructor(
    readonly nodeId: string,
    readonly label: string,
    message: string,
  ) {
    super(message);
    this.name = 'NodeFailure';
  }
}
