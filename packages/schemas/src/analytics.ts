import { z } from 'zod';
import { uuid } from './common';
import {
  ANALYTICS_MAX_RANGE_DAYS,
  LOG_PAGE_MAX,
  LOG_PAGE_SIZE,
  analyticsPeriods,
  logExportFormats,
  logStatuses,
} from './constants';

export const pageViewBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    path: z.string().max(500).default('/'),
  })
  .strict();
export type PageViewBody = z.infer<typeof pageViewBody>;

/**
 * An IANA time zone name as the browser reports it (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
 * Offsets such as `+01:00` are refused: PostgreSQL reads them with the POSIX sign, the other way round.
 */
export function isTimeZone(value: string): boolean {
  if (!/^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2})$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, { error: 'must be an IANA time zone such as Europe/Paris' });

const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with an offset' });
const DAY_MS = 86_400_000;

/** The range and bucketing every analytics call takes; `from` defaults to a week before `to` (now). */
const rangeFields = {
  workspace_id: uuid.optional(),
  chatbot_id: uuid.optional(),
  from: instant.optional(),
  to: instant.optional(),
  period: z.enum(analyticsPeriods).default('day'),
  tz: timeZone.default('UTC'),
};

function checkRange(q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  const to = q.to ? Date.parse(q.to) : Date.now();
  const from = q.from ? Date.parse(q.from) : to - 7 * DAY_MS;
  if (from >= to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before to' });
  else if (to - from > ANALYTICS_MAX_RANGE_DAYS * DAY_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['from'],
      message: `the range may span at most ${ANALYTICS_MAX_RANGE_DAYS} days`,
    });
  }
}

export const analyticsQuery = z.object(rangeFields).strict().superRefine(checkRange);
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

const logFilterFields = {
  ...rangeFields,
  /** The model's name in Atelier (as the filter list gives it). */
  model: z.string().trim().min(1).max(200).optional(),
  status: z.enum(logStatuses).optional(),
  user_id: uuid.optional(),
  /** Words searched in the user message, the response, the error message, the chatbot and the model. */
  q: z.string().trim().min(1).max(200).optional(),
};

export const logsQuery = z
  .object({
    ...logFilterFields,
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(LOG_PAGE_MAX).default(LOG_PAGE_SIZE),
  })
  .strict()
  .superRefine(checkRange);
export type LogsQuery = z.infer<typeof logsQuery>;

export const logExportQuery = z
  .object({ ...logFilterFields, format: z.enum(logExportFormats).default('csv') })
  .strict()
  .superRefine(checkRange);
export type LogExportQuery = z.infer<typeof logExportQuery>;

export type LogFilters = Omit<LogsQuery, 'cursor' | 'limit'>;
