import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabsBar, TabsContent, TabsRoot } from '@/components/ui/tabs';
import { trackPageView } from '@/lib/analytics';
import { useAppStore, useSelectedWorkspace } from '@/stores/app-store';
import { EngagementTab } from './engagement-tab';
import { LogsTab } from './logs-tab';
import { OverviewTab } from './overview-tab';
import { PerformanceTab } from './performance-tab';
import type { Scope } from './queries';
import { browserTimeZone, presetRange, toParams, type RangeChoice } from './range';
import { RangePicker } from './range-picker';

const TABS = ['overview', 'performance', 'engagement', 'logs'] as const;
type Tab = (typeof TABS)[number];

/** /analytics: the selected workspace's usage (a plain user's own), in four tabs. */
export default function AnalyticsPage() {
  const workspace = useSelectedWorkspace();
  useEffect(() => trackPageView('Analytics'), []);
  // The main layout shows the onboarding guide instead while no workspace is selected.
  return workspace ? <AnalyticsView key={workspace.id} workspaceId={workspace.id} /> : null;
}

function AnalyticsView({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const role = useAppStore((s) => s.user?.user_role_id);
  const [range, setRange] = useState<RangeChoice>(() => presetRange('lastWeek', browserTimeZone()));
  const [tab, setTab] = useState<Tab>('overview');
  const scope: Scope = useMemo(
    () => ({ workspace_id: workspaceId, ...toParams(range) }),
    [workspaceId, range],
  );
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6" data-testid="analytics-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('analytics.title')}</h1>
          <p className="text-sm text-muted-foreground">
            {role === 'user' ? t('analytics.descriptionOwn') : t('analytics.description')}
          </p>
        </div>
        <RangePicker value={range} onChange={setRange} />
      </div>
      <TabsRoot
        value={tab}
        onValueChange={(v) => setTab(v as Tab)}
        className="grid min-w-0 grid-cols-1 gap-4"
      >
        <TabsBar
          label={t('analytics.title')}
          tabs={TABS.map((value) => ({ value, label: t(`analytics.tabs.${value}`) }))}
        />
        <TabsContent value="overview">
          <OverviewTab scope={scope} />
        </TabsContent>
        <TabsContent value="performance">
          <PerformanceTab scope={scope} />
        </TabsContent>
        <TabsContent value="engagement">
          <EngagementTab scope={scope} />
        </TabsContent>
        <TabsContent value="logs">
          <LogsTab scope={scope} showUsers={role !== 'user'} />
        </TabsContent>
      </TabsRoot>
    </div>
  );
}
