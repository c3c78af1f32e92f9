import type { PerformanceAnswer } from '@atelier/schemas';
import { Gauge } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatCount, formatMs, formatPercent } from './format';
import { usePerformance, type Scope } from './queries';
import { LoadError } from '@/components/load-error';
import { FiguresSkeleton, NoActivity } from './states';

type Group = Omit<PerformanceAnswer['by_model'][number], 'model_name'>;

/** Latency percentiles, and error and fallback rates per model and per chatbot. */
export function PerformanceTab({ scope }: { scope: Scope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = usePerformance(scope);
  if (query.isPending) return <FiguresSkeleton charts={2} />;
  if (query.isError) return <LoadError onRetry={() => void query.refetch()} />;
  const data = query.data;
  if (data.by_model.length === 0) return <NoActivity icon={Gauge} />;
  const rows = [
    { label: t('analytics.performance.firstToken'), p: data.first_token_ms },
    { label: t('analytics.performance.total'), p: data.total_ms },
  ];
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="performance-tab">
      <Card className="p-4">
        <h3 className="mb-2 font-semibold tracking-tight">{t('analytics.performance.latency')}</h3>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead />
              <TableHead className="text-right">p50</TableHead>
              <TableHead className="text-right">p95</TableHead>
              <TableHead className="text-right">p99</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.label}>
                <TableCell className="font-medium">{r.label}</TableCell>
                {(['p50', 'p95', 'p99'] as const).map((k) => (
                  <TableCell key={k} className="whitespace-nowrap text-right tabular-nums">
                    {formatMs(r.p[k], lang)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      <GroupTable
        title={t('analytics.performance.byModel')}
        first={t('analytics.logs.model')}
        rows={data.by_model.map((g) => ({ ...g, key: g.model_name, name: g.model_name }))}
      />
      <GroupTable
        title={t('analytics.performance.byChatbot')}
        first={t('analytics.logs.chatbot')}
        rows={data.by_chatbot.map((g) => ({ ...g, key: g.chatbot_id }))}
      />
    </div>
  );
}

function GroupTable({
  title,
  first,
  rows,
}: {
  title: string;
  first: string;
  rows: (Group & { key: string; name: string })[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <Card className="p-4">
      <h3 className="mb-2 font-semibold tracking-tight">{title}</h3>
      {rows.length === 0 ? (
        <p className="py-4 text-sm text-muted-foreground">{t('analytics.charts.noChatbots')}</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{first}</TableHead>
              <TableHead className="text-right">{t('analytics.series.requests')}</TableHead>
              <TableHead className="text-right">{t('analytics.stats.errorRate')}</TableHead>
              <TableHead className="text-right">{t('analytics.performance.fallbackRate')}</TableHead>
              <TableHead className="hidden text-right sm:table-cell">p50</TableHead>
              <TableHead className="hidden text-right sm:table-cell">p95</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((g) => (
              <TableRow key={g.key}>
                <TableCell className="max-w-40 truncate font-medium">{g.name}</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">
                  {formatCount(g.requests, lang)}
                </TableCell>
                <TableCell
                  className={`whitespace-nowrap text-right tabular-nums ${g.error_rate > 0 ? 'text-destructive' : ''}`}
                >
                  {formatPercent(g.error_rate, lang)}
                </TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">
                  {formatPercent(g.fallback_rate, lang)}
                </TableCell>
                <TableCell className="hidden whitespace-nowrap text-right tabular-nums sm:table-cell">
                  {formatMs(g.p50_total_ms, lang)}
                </TableCell>
                <TableCell className="hidden whitespace-nowrap text-right tabular-nums sm:table-cell">
                  {formatMs(g.p95_total_ms, lang)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
