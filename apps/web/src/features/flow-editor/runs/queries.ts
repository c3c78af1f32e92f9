import { FINISHED_RUN_STATUSES, type RunStatus } from '@atelier/schemas/constants';
import { useQuery } from '@tanstack/react-query';
import { listRuns } from './run-client';

export const runsKey = (chatbotId: string, status?: RunStatus) =>
  ['flow-runs', chatbotId, status ?? 'all'] as const;

/** How often the list refreshes while one of its runs is still going. */
export const LIVE_REFRESH_MS = 3000;

/** A chatbot's runs, newest first (the API's order); refreshed while any of them is queued or running. */
export const useRuns = (chatbotId: string, status?: RunStatus) =>
  useQuery({
    queryKey: runsKey(chatbotId, status),
    queryFn: () => listRuns(chatbotId, { limit: 50, ...(status ? { status } : {}) }),
    refetchInterval: (query) =>
      query.state.data?.some((run) => !FINISHED_RUN_STATUSES.includes(run.status)) ? LIVE_REFRESH_MS : false,
  });
