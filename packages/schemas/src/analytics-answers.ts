import { z } from 'zod';
import { analyticsPeriods, logStatuses, messageFeedbacks } from './constants';

/** The range an answer covers, as the server understood it. */
export const analyticsRange = z.object({
  from: z.string(),
  to: z.string(),
  period: z.enum(analyticsPeriods),
  tz: z.string(),
});

/** A bucket is named by its first local day (`YYYY-MM-DD` in the asked time zone). */
const bucket = z.string();
/** Milliseconds, rounded; null when there was nothing to measure. */
const ms = z.number().nullable();

export const percentiles = z.object({ p50: ms, p95: ms, p99: ms });

export const overviewAnswer = z.object({
  range: analyticsRange,
  totals: z.object({
    requests: z.number(),
    errors: z.number(),
    error_rate: z.number(),
    users: z.number(),
    avg_total_ms: ms,
  }),
  volume: z.array(z.object({ bucket, requests: z.number(), errors: z.number() })),
  /** 24 entries, hour 0 to 23 of the local day. */
  hourly: z.array(z.object({ hour: z.number(), requests: z.number() })),
  response_time: z.array(z.object({ bucket, avg_total_ms: ms, p95_total_ms: ms, avg_first_token_ms: ms })),
  top_chatbots: z.array(z.object({ chatbot_id: z.string(), name: z.string(), requests: z.number() })),
  daily_active_users: z.array(z.object({ day: z.string(), users: z.number() })),
});
export type OverviewAnswer = z.infer<typeof overviewAnswer>;

const rates = {
  requests: z.number(),
  errors: z.number(),
  fallbacks: z.number(),
  error_rate: z.number(),
  fallback_rate: z.number(),
  p50_total_ms: ms,
  p95_total_ms: ms,
};

export const performanceAnswer = z.object({
  range: analyticsRange,
  first_token_ms: percentiles,
  total_ms: percentiles,
  by_model: z.array(z.object({ model_name: z.string(), ...rates })),
  by_chatbot: z.array(z.object({ chatbot_id: z.string(), name: z.string(), ...rates })),
});
export type PerformanceAnswer = z.infer<typeof performanceAnswer>;

export const engagementAnswer = z.object({
  range: analyticsRange,
  totals: z.object({
    /** Conversations started in the range. */
    conversations: z.number(),
    /** Conversations with at least one message in the range. */
    active_conversations: z.number(),
    messages: z.number(),
    messages_per_conversation: z.number(),
    active_users: z.number(),
    page_views: z.number(),
  }),
  activity: z.array(
    z.object({
      bucket,
      conversations: z.number(),
      messages: z.number(),
      active_users: z.number(),
      page_views: z.number(),
    }),
  ),
  top_pages: z.array(z.object({ name: z.string(), views: z.number() })),
});
export type EngagementAnswer = z.infer<typeof engagementAnswer>;

export const logSummary = z.object({
  id: z.string(),
  created_at: z.string(),
  chatbot_id: z.string().nullable(),
  chatbot_name: z.string(),
  user_id: z.string().nullable(),
  user_email: z.string().nullable(),
  model_name: z.string(),
  provider_model_name: z.string(),
  provider_type: z.string(),
  status: z.enum(logStatuses),
  error: z.boolean(),
  fallback: z.boolean(),
  streamed: z.boolean(),
  first_token_ms: z.number().nullable(),
  total_ms: z.number(),
  request_words: z.number(),
  response_words: z.number(),
  /** The start of the user's message; empty for metrics-only chatbots. */
  user_message_preview: z.string(),
  error_message: z.string(),
  /** The person's thumbs up or down on the answer of this call's turn (null: not rated). */
  feedback: z.enum(messageFeedbacks).nullable(),
});
export type LogSummary = z.infer<typeof logSummary>;

export const logsAnswer = z.object({ logs: z.array(logSummary), next_cursor: z.string().nullable() });
export type LogsAnswer = z.infer<typeof logsAnswer>;

export const logDetail = logSummary.omit({ user_message_preview: true }).extend({
  conversation_id: z.string().nullable(),
  model_id: z.string().nullable(),
  complete_prompt: z.string(),
  user_message: z.string(),
  response: z.string(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  credits: z.number(),
  /** False when the chatbot stores metrics only: the content fields are then empty. */
  content_stored: z.boolean(),
});
export type LogDetail = z.infer<typeof logDetail>;
export const logDetailAnswer = z.object({ log: logDetail });

/** What the log filters can choose from, in the caller's scope and range. */
export const logFacetsAnswer = z.object({
  chatbots: z.array(z.object({ id: z.string(), name: z.string() })),
  models: z.array(z.string()),
  users: z.array(z.object({ id: z.string(), email: z.string() })),
});
export type LogFacetsAnswer = z.infer<typeof logFacetsAnswer>;
