import { useTranslation } from 'react-i18next';
import { Bars, ChartCard, COLORS, Lines } from './charts';
import { bucketLabel, formatCount, formatMs, formatPercent } from './format';
import { useOverview, type Scope } from './queries';
import { LoadError } from '@/components/load-error';
import { FiguresSkeleton, NoActivity, Stat, StatGrid } from './states';

/** Inference volume, hourly volume, response time, top chatbots and daily active users. */
export function OverviewTab({ scope }: { scope: Scope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useOverview(scope);
  if (query.isPending) return <FiguresSkeleton charts={4} />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const data = query.data;
  const label = (bucket: string) => bucketLabel(bucket, data.range.period, lang);
  const ms = (v: number) => formatMs(v, lang);
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="overview-tab">
      <StatGrid>
        <Stat label={t('analytics.stats.requests')} value={formatCount(data.totals.requests, lang)} />
        <Stat label={t('analytics.stats.errorRate')} value={formatPercent(data.totals.error_rate, lang)} />
        <Stat label={t('analytics.stats.avgResponse')} value={formatMs(data.totals.avg_total_ms, lang)} />
        <Stat label={t('analytics.stats.users')} value={formatCount(data.totals.users, lang)} />
      </StatGrid>
      {data.totals.requests === 0 ? (
        <NoActivity />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <ChartCard title={t('analytics.charts.volume')} testId="chart-volume">
            <Bars
              data={data.volume.map((v) => ({ ...v, label: label(v.bucket), ok: v.requests - v.errors }))}
              x="label"
              stacked
              series={[
                { dataKey: 'ok', label: t('analytics.series.success'), color: COLORS.primary },
                { dataKey: 'errors', label: t('analytics.series.errors'), color: COLORS.error },
              ]}
            />
          </ChartCard>
          <ChartCard
            title={t('analytics.charts.hourly')}
            description={t('analytics.charts.hourlyHint', { tz: data.range.tz })}
            testId="chart-hourly"
          >
            <Bars
              data={data.hourly.map((h) => ({ ...h, label: `${h.hour}h` }))}
              x="label"
              series={[{ dataKey: 'requests', label: t('analytics.series.requests'), color: COLORS.primary }]}
            />
          </ChartCard>
          <ChartCard title={t('analytics.charts.responseTime')} testId="chart-response-time">
            <Lines
              data={data.response_time.map((r) => ({ ...r, label: label(r.bucket) }))}
              x="label"
              format={ms}
              series={[
                { dataKey: 'avg_total_ms', label: t('analytics.series.avgTotal'), color: COLORS.primary },
                { dataKey: 'p95_total_ms', label: t('analytics.series.p95Total'), color: COLORS.warning },
                {
                  dataKey: 'avg_first_token_ms',
                  label: t('analytics.series.avgFirstToken'),
                  color: COLORS.success,
                },
              ]}
            />
          </ChartCard>
          <ChartCard title={t('analytics.charts.topChatbots')} testId="chart-top-chatbots">
            {data.top_chatbots.length === 0 ? (
              <p className="grid h-full place-items-center text-sm text-muted-foreground">
                {t('analytics.charts.noChatbots')}
              </p>
            ) : (
              <Bars
                data={data.top_chatbots}
                x="name"
                horizontal
                series={[
                  { dataKey: 'requests', label: t('analytics.series.requests'), color: COLORS.primary },
                ]}
              />
            )}
          </ChartCard>
          <ChartCard
            title={t('analytics.charts.dailyUsers')}
            className="lg:col-span-2"
            testId="chart-daily-users"
          >
            <Lines
              data={data.daily_active_users.map((d) => ({ ...d, label: bucketLabel(d.day, 'day', lang) }))}
              x="label"
              integer
              series={[{ dataKey: 'users', label: t('analytics.series.users'), color: COLORS.primary }]}
            />
          </ChartCard>
        </div>
      )}
    </div>
  );
}
