import { pageViews, type Db } from '@atelier/db';
import type { PageViewBody } from '@atelier/schemas';
import type { Principal } from '../auth/principal';

export function createAnalyticsService(deps: { db: Db }) {
  return {
    /** Records a named page view of the caller (for example "Forbidden Page"). */
    async recordPageView(principal: Principal, view: PageViewBody): Promise<void> {
      await deps.db.insert(pageViews).values({
        organizationId: principal.organizationId,
        userId: principal.userId,
        name: view.name,
        path: view.path,
      });
    },
  };
}
