import { Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Bars, ChartCard, COLORS, Lines } from './charts';
import { bucketLabel, formatCount } from './format';
import { useEngagement, type Scope } from './queries';
import { LoadError } from '@/components/load-error';
import { FiguresSkeleton, NoActivity, Stat, StatGrid } from './states';

/** Conversations, messages per conversation, active users and page views. */
export function EngagementTab({ scope }: { scope: Scope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useEngagement(scope);
  if (query.isPending) return <FiguresSkeleton charts={3} />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const data = query.data;
  const totals = data.totals;
  const activity = data.activity.map((a) => ({
    ...a,
    label: bucketLabel(a.bucket, data.range.period, lang),
  }));
  const nothing = totals.messages === 0 && totals.page_views === 0 && totals.conversations === 0;
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="engagement-tab">
      <StatGrid>
        <Stat
          label={t('analytics.engagement.conversations')}
          value={formatCount(totals.conversations, lang)}
        />
        <Stat
          label={t('analytics.engagement.perConversation')}
          value={formatCount(totals.messages_per_conversation, lang)}
        />
        <Stat label={t('analytics.engagement.activeUsers')} value={formatCount(totals.active_users, lang)} />
        <Stat label={t('analytics.engagement.pageViews')} value={formatCount(totals.page_views, lang)} />
      </StatGrid>
      {nothing ? (
        <NoActivity icon={Users} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <ChartCard title={t('analytics.engagement.activity')} testId="chart-activity">
            <Bars
              data={activity}
              x="label"
              series={[
                {
                  dataKey: 'conversations',
                  label: t('analytics.engagement.conversations'),
                  color: COLORS.primary,
                },
                { dataKey: 'messages', label: t('analytics.engagement.messages'), color: COLORS.success },
              ]}
            />
          </ChartCard>
          <ChartCard title={t('analytics.engagement.activeUsers')} testId="chart-active-users">
            <Lines
              data={activity}
              x="label"
              integer
              series={[
                { dataKey: 'active_users', label: t('analytics.series.users'), color: COLORS.primary },
              ]}
            />
          </ChartCard>
          <ChartCard title={t('analytics.engagement.pageViews')} testId="chart-page-views">
            <Bars
              data={activity}
              x="label"
              series={[
                { dataKey: 'page_views', label: t('analytics.engagement.pageViews'), color: COLORS.warning },
              ]}
            />
          </ChartCard>
          <ChartCard title={t('analytics.engagement.topPages')} testId="chart-top-pages">
            {data.top_pages.length === 0 ? (
              <p className="grid h-full place-items-center text-sm text-muted-foreground">
                {t('analytics.engagement.noPages')}
              </p>
            ) : (
              <Bars
                data={data.top_pages}
                x="name"
                horizontal
                series={[
                  { dataKey: 'views', label: t('analytics.engagement.pageViews'), color: COLORS.warning },
                ]}
              />
            )}
          </ChartCard>
        </div>
      )}
    </div>
  );
}
