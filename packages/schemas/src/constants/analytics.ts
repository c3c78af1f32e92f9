/** Analytics: how figures are bucketed, the statuses a log has, and the export formats. */
export const analyticsPeriods = ['day', 'week', 'month'] as const;
export type AnalyticsPeriod = (typeof analyticsPeriods)[number];

export const logStatuses = ['success', 'error'] as const;
export type LogStatus = (typeof logStatuses)[number];

export const logExportFormats = ['csv', 'jsonl'] as const;
export type LogExportFormat = (typeof logExportFormats)[number];

/** The longest date range a query may span (a year and a bit: "last 3 months" and beyond). */
export const ANALYTICS_MAX_RANGE_DAYS = 400;
/** Logs per page: default and most. */
export const LOG_PAGE_SIZE = 50;
export const LOG_PAGE_MAX = 200;
