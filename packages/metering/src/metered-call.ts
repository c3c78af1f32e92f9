import { randomUUID } from 'node:crypto';
import {
  inferenceLogs,
  stmt,
  verbatim,
  writeTogether,
  type Combine,
  type Db,
  type Statement,
} from '@atelier/db';
import {
  countUsage,
  ProviderError,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
  type Consumption,
} from '@atelier/providers';
import { getTableColumns } from 'drizzle-orm';
import { SpanKind, withSpan } from '@atelier/telemetry';
import { labelsOf, recordModelCall } from './call-telemetry';
import { creditCtes, type ChargeInput } from './credits';
import {
  chatPrompt,
  inferenceLogRow,
  lastUserText,
  type InferenceLogRow,
  type MeterScope,
  type MeterTarget,
} from './inference-log';
import { priceOf } from './pricing';

/** What a call writes when it ends: its inference-log row and its charge, for one organization. */
export interface MeterWrite {
  organizationId: string;
  row: InferenceLogRow;
  charge: ChargeInput;
}

/** How a call ended, for a writer that reports it before writing (the simple chat's closing event). */
export interface MeterOutcome {
  target: MeterTarget;
  fallback: boolean;
  /** The call's error; null when it succeeded. */
  error: unknown;
}

const LOG_TABLE_COLUMNS = getTableColumns(inferenceLogs);
/** The inference log's columns but its creation time (the database's clock). */
const LOG_KEYS = Object.keys(LOG_TABLE_COLUMNS).filter(
  (key) => key !== 'createdAt',
) as (keyof InferenceLogRow)[];
const LOG_COLUMN_LIST = LOG_KEYS.map((key) => `"${LOG_TABLE_COLUMNS[key].name}"`).join(', ');

/** A row as the database's JSON record of the table: column names, left-out columns at their default. */
function logRecord(row: InferenceLogRow): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of LOG_KEYS) {
    const column = LOG_TABLE_COLUMNS[key];
    const value = row[key];
    record[column.name] =
      value !== undefined
        ? value
        : key === 'id'
          ? randomUUID()
          : column.hasDefault && typeof column.default !== 'object'
            ? column.default
            : null;
  }
  return record;
}

/**
 * The rows and the charges of calls of one organization as named CTEs (`inference_log`, then those of
 * `creditCtes`), for a caller that writes them with something else in one statement. The text is the
 * same for any number of calls (the rows are one JSON value).
 */
export function meterWriteCtes(organizationId: string, writes: readonly MeterWrite[]): Statement {
  if (writes.some((write) => write.organizationId !== organizationId)) {
    throw new RangeError('meter writes of one organization only');
  }
  const rows = JSON.stringify(writes.map((write) => logRecord(write.row)));
  return stmt`inference_log as (
      insert into inference_logs (${verbatim(LOG_COLUMN_LIST)})
      select ${verbatim(LOG_COLUMN_LIST)} from jsonb_populate_recordset(null::inference_logs, ${rows}::jsonb)
    ), ${creditCtes(
      organizationId,
      writes.map((write) => write.charge),
    )}`;
}

/** Calls' rows and charges in one statement, for the calls of one organization that end together. */
const meterWrites: Combine<MeterWrite> = (writes) =>
  stmt`with ${meterWriteCtes(writes[0]!.organizationId, writes)} select 0 as n where false`;

/**
 * Writes a call's row and charge (the default writer): with the other calls of its organization that
 * end meanwhile, in one statement (the charges all write the organization's credit plan: see
 * writeTogether).
 */
export async function writeMetered(db: Db, write: MeterWrite): Promise<void> {
  await writeTogether(db, write.organizationId, meterWrites, write);
}

/** Handed to a call while it runs: streamed text goes through `token` (first-token time, no fallback after). */
export interface Meter {
  token(text: string): void;
  /** The text streamed so far. */
  readonly text: string;
}

/** One attempt's answer: its value, what it consumed (priced by the model) and its log text. */
export interface MeteredAttempt<T> {
  value: T;
  used: Consumption;
  response: string;
}

export interface MeteredCallOptions<T> {
  db: Db;
  scope: MeterScope;
  primary: MeterTarget;
  /** Tried when the primary fails with a provider error before anything streamed; a function is asked only then. */
  fallback?: MeterTarget | null | (() => Promise<MeterTarget | null>);
  /** The request as logged (see `inferenceLogRow`). */
  prompt: string;
  userMessage: string;
  /** The answer reached its client as it was produced. */
  streamed: boolean;
  /** The ledger row's description. */
  description: string | ((target: MeterTarget) => string);
  metadata?: Record<string, unknown>;
  call(target: MeterTarget, meter: Meter): Promise<MeteredAttempt<T>>;
  /** What a failed call still consumed (default: nothing, so nothing is owed, not even a per-call price). */
  consumedOnFailure?(meter: Meter): Promise<Consumption> | Consumption;
  /** The error message logged for a failed call (default: its message). */
  describeError?(error: unknown): string;
  /** Writes row and charge (default `writeMetered`): lets a caller fold them into a statement it makes anyway. */
  write?(write: MeterWrite, outcome: MeterOutcome): Promise<void>;
}

export interface MeteredResult<T> {
  value: T;
  target: MeterTarget;
  fallback: boolean;
  used: Consumption;
  credits: number;
  firstTokenMs: number | null;
  totalMs: number;
  logId: string;
}

const messageOf = (error: unknown) =>
  error instanceof ProviderError ? error.detail : error instanceof Error ? error.message : String(error);

/**
 * One metered model call, of any model type: runs it (on the fallback model when the model fails before
 * anything streamed), measures first-token and total time, prices what it consumed and writes exactly
 * one inference-log row and one ledger charge, whoever calls it. A failed call writes its row too (status
 * error) and is charged what it consumed (`consumedOnFailure`, usually nothing: a ledger row of 0 then
 * records it), and its error is thrown again. A charge of 0 is still a ledger row: every call has one.
 */
export function meteredCall<T>(options: MeteredCallOptions<T>): Promise<MeteredResult<T>> {
  const labels = labelsOf(options.primary);
  return withSpan(
    `model.call ${labels.model_type}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'atelier.provider': labels.provider, 'atelier.model_type': labels.model_type },
    },
    () => meteredCallOnce(options),
  );
}

async function meteredCallOnce<T>(options: MeteredCallOptions<T>): Promise<MeteredResult<T>> {
  const started = performance.now();
  let firstTokenMs: number | null = null;
  let text = '';
  const meter: Meter = {
    token(delta) {
      firstTokenMs ??= performance.now() - started;
      text += delta;
    },
    get text() {
      return text;
    },
  };
  let target = options.primary;
  let answer: MeteredAttempt<T> | null = null;
  let failure: { error: unknown } | null = null;
  try {
    try {
      answer = await options.call(target, meter);
    } catch (error) {
      // An answer is never spliced: the fallback takes over only while nothing has been streamed.
      const retryable = error instanceof ProviderError && error.code !== 'cancelled' && text === '';
      const fallback =
        retryable && options.fallback
          ? typeof options.fallback === 'function'
            ? await options.fallback()
            : options.fallback
          : null;
      if (!fallback) throw error;
      target = fallback;
      answer = await options.call(target, meter);
    }
  } catch (error) {
    failure = { error };
  }

  const used = answer ? answer.used : ((await options.consumedOnFailure?.(meter)) ?? { calls: 0 });
  const credits = priceOf(target.model, used);
  const totalMs = performance.now() - started;
  const fallback = target !== options.primary;
  const logId = randomUUID();
  const error = failure ? (options.describeError ?? messageOf)(failure.error) : null;
  recordModelCall({ target, used, credits, totalMs, firstTokenMs, fallback, failed: failure !== null });
  const write: MeterWrite = {
    organizationId: options.scope.organizationId,
    row: inferenceLogRow({
      id: logId,
      scope: options.scope,
      target,
      prompt: options.prompt,
      userMessage: options.userMessage,
      response: answer ? answer.response : text,
      used,
      firstTokenMs,
      totalMs,
      streamed: options.streamed,
      fallback,
      error,
      credits,
    }),
    charge: {
      amount: credits,
      userId: options.scope.userId,
      description:
        typeof options.description === 'function' ? options.description(target) : options.description,
      metadata: {
        ...options.metadata,
        model_id: target.model.id,
        inference_log_id: logId,
        fallback,
        ...(failure ? { failed: true } : {}),
        ...used,
      },
    },
  };
  const writing = options.write
    ? options.write(write, { target, fallback, error: failure?.error ?? null })
    : writeMetered(options.db, write);
  if (failure) {
    // The call's own error is what the caller hears; its record is written first, as well as it can be.
    await writing.catch(() => undefined);
    throw failure.error;
  }
  await writing;
  return { value: answer!.value, target, fallback, used, credits, firstTokenMs, totalMs, logId };
}

export interface MeteredChatOptions extends Omit<
  MeteredCallOptions<ChatResult>,
  'call' | 'prompt' | 'userMessage' | 'streamed' | 'consumedOnFailure'
> {
  request: Omit<ChatRequest, 'model'>;
  /** The chat adapter of a target (throws when its provider cannot chat). */
  chatOf(target: MeterTarget): ChatModel;
  signal: AbortSignal;
  /** Text deltas for the client: the answer is streamed (and logged as streamed). */
  onToken?: ((text: string) => void) | undefined;
  /** Use the provider's stream even without `onToken` (measures the first token). */
  stream?: boolean;
}

/**
 * A metered chat call, streamed or whole. A call cut short is charged the tokens counted in its prompt
 * and in what it produced (the provider did that work); its usage otherwise comes from the provider,
 * or is counted when the provider gives none.
 */
export function meteredChat(options: MeteredChatOptions): Promise<MeteredResult<ChatResult>> {
  const { request, chatOf, signal, onToken } = options;
  const stream = options.stream ?? Boolean(onToken);
  return meteredCall<ChatResult>({
    ...options,
    prompt: chatPrompt(request.system, request.messages),
    userMessage: lastUserText(request.messages),
    streamed: Boolean(onToken),
    consumedOnFailure: (meter) => countUsage(null, request, meter.text),
    async call(target, meter) {
      const chat = chatOf(target);
      const call = { ...request, model: target.model.modelName };
      let result: ChatResult | null = null;
      if (!stream) result = await chat.complete(call, { signal });
      else {
        for await (const event of chat.stream(call, { signal })) {
          if (event.type === 'text') {
            meter.token(event.text);
            onToken?.(event.text);
          } else result = event.result;
        }
      }
      if (!result) throw new ProviderError('provider_error', 'The answer ended without its result.');
      const usage = await countUsage(result.usage, request, result.text);
      return { value: { ...result, usage }, used: usage, response: result.text };
    },
  });
}
