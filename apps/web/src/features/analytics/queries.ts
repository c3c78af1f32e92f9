import type {
  EngagementAnswer,
  LogDetail,
  LogFacetsAnswer,
  LogsAnswer,
  LogStatus,
  OverviewAnswer,
  PerformanceAnswer,
} from '@atelier/schemas';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { RangeParams } from './range';

/** What every analytics call is asked for: the workspace and the range. */
export interface Scope extends RangeParams {
  workspace_id: string;
}

export interface LogFilters {
  chatbot_id?: string;
  model?: string;
  status?: LogStatus;
  user_id?: string;
  q?: string;
}

/** A query string of the defined values only. */
export function queryString(values: object): string {
  const entries = Object.entries(values).filter(([, v]) => v !== undefined && v !== '') as [string, string][];
  return new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
}

const figures =
  <T>(path: string) =>
  (scope: Scope) =>
    useQuery({
      queryKey: ['analytics', path, scope],
      queryFn: () => api.get<T>(`/analytics/${path}?${queryString(scope)}`),
      placeholderData: keepPreviousData,
    });

export const useOverview = figures<OverviewAnswer>('overview');
export const usePerformance = figures<PerformanceAnswer>('performance');
export const useEngagement = figures<EngagementAnswer>('engagement');

export const useLogFacets = (scope: Scope) =>
  useQuery({
    queryKey: ['analytics', 'log-filters', scope],
    queryFn: () => api.get<LogFacetsAnswer>(`/analytics/logs/filters?${queryString(scope)}`),
    placeholderData: keepPreviousData,
  });

export const LOGS_PAGE = 50;

/** Logs newest first, a page at a time (the API's keyset cursor). */
export const useLogs = (scope: Scope, filters: LogFilters) =>
  useInfiniteQuery({
    queryKey: ['analytics', 'logs', scope, filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.get<LogsAnswer>(
        `/analytics/logs?${queryString({ ...scope, ...filters, limit: LOGS_PAGE, cursor: pageParam ?? undefined })}`,
      ),
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });

export const useLogDetail = (id: string | null) =>
  useQuery({
    queryKey: ['analytics', 'log', id],
    queryFn: async () => (await api.get<{ log: LogDetail }>(`/analytics/logs/${id}`)).log,
    enabled: id !== null,
  });
