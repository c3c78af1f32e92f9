import { pageViews, type Db } from '@atelier/db';
import type { AnalyticsQuery, LogExportQuery, LogsQuery, PageViewBody } from '@atelier/schemas';
import type { Principal } from '../auth/principal';
import type { createWorkspacesService } from '../workspaces/workspaces-service';
import { engagement } from './engagement';
import { exportBatches, exportStream } from './log-export';
import { listLogs, logDetail, logFacets } from './logs';
import { overview } from './overview';
import { performance } from './performance';
import { resolveScope } from './scope';

/**
 * Analytics over inference logs, conversations and page views, scoped by organization, workspace and
 * role (see `scope.ts`), bucketed in the caller's time zone.
 */
export function createAnalyticsService(deps: {
  db: Db;
  workspaces: ReturnType<typeof createWorkspacesService>;
}) {
  const { db } = deps;
  const scopeOf = (principal: Principal, query: AnalyticsQuery & { user_id?: string | undefined }) =>
    resolveScope(deps, principal, query);

  return {
    /** Records a named page view of the caller (for example "Forbidden Page"). */
    async recordPageView(principal: Principal, view: PageViewBody): Promise<void> {
      await db.insert(pageViews).values({
        organizationId: principal.organizationId,
        userId: principal.userId,
        name: view.name,
        path: view.path,
      });
    },

    overview: async (principal: Principal, query: AnalyticsQuery) =>
      overview(db, await scopeOf(principal, query)),
    performance: async (principal: Principal, query: AnalyticsQuery) =>
      performance(db, await scopeOf(principal, query)),
    engagement: async (principal: Principal, query: AnalyticsQuery) =>
      engagement(db, await scopeOf(principal, query)),
    logs: async (principal: Principal, query: LogsQuery) =>
      listLogs(db, await scopeOf(principal, query), query),
    logFacets: async (principal: Principal, query: AnalyticsQuery) =>
      logFacets(db, await scopeOf(principal, query)),

    /** Any date: the detail is reached from a listing whose range the caller already chose. */
    async log(principal: Principal, id: string) {
      const scope = await scopeOf(principal, { period: 'day', tz: 'UTC' });
      return logDetail(db, scope, id);
    },

    /** Checks the scope first (so refusals are answered as errors), then streams the rows. */
    async exportLogs(principal: Principal, query: LogExportQuery) {
      const scope = await scopeOf(principal, query);
      return exportStream(exportBatches(db, scope, query), query.format);
    },
  };
}
