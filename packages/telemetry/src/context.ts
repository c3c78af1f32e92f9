import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every log line written on behalf of a request or a run carries. */
export interface LogContext {
  /** The request's id (`X-Request-Id`), also carried by the runs it started. */
  requestId?: string | undefined;
  runId?: string | undefined;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` with `context` added to the current one (nested: a run inside a request keeps its id), or
 * instead of it with `replace` (a run taken off a queue is nobody else's).
 */
export function withLogContext<T>(context: LogContext, fn: () => T, replace = false): T {
  return storage.run(replace ? { ...context } : { ...storage.getStore(), ...context }, fn);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/** What a client may send as its request id: short, printable, no spaces, nothing a log could misread. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}$/;

/** The client's `X-Request-Id` when it is sane; a new UUID otherwise. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value);
}

interface Bindings {
  bindings?(): Record<string, unknown>;
}

/**
 * A pino `mixin`: adds `reqId` and `runId` from the current context to a log line, unless the logger
 * already binds them (Fastify's request loggers bind `reqId`).
 */
export function logContextFields(_object: object, _level: number, logger?: Bindings): Record<string, string> {
  const context = storage.getStore();
  if (!context) return {};
  const bound = logger?.bindings?.() ?? {};
  const fields: Record<string, string> = {};
  if (context.requestId && bound.reqId === undefined) fields.reqId = context.requestId;
  if (context.runId && bound.runId === undefined) fields.runId = context.runId;
  return fields;
}

/** The structured logger the packages write to (pino's, Fastify's or the worker's satisfy it). */
export interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
