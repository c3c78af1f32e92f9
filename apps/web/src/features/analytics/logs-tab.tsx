import type { LogExportFormat } from '@atelier/schemas/constants';
import { Download, ScrollText } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/stores/toasts';
import { downloadLogs } from './export';
import { formatInstant, formatMs } from './format';
import { LogDrawer } from './log-drawer';
import { LogFiltersBar } from './log-filters';
import { useLogFacets, useLogs, type LogFilters, type Scope } from './queries';
import { LoadError } from '@/components/load-error';
import { StatusBadge } from './status-badge';

/** The inference logs of the range, filtered, a page at a time; details in a drawer; export. */
export function LogsTab({ scope, showUsers }: { scope: Scope; showUsers: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [filters, setFilters] = useState<LogFilters>({});
  const [openId, setOpenId] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const facets = useLogFacets(scope);
  const logs = useLogs(scope, filters);
  const rows = logs.data?.pages.flatMap((p) => p.logs) ?? [];

  async function exportAs(format: LogExportFormat) {
    setExporting(true);
    try {
      await downloadLogs(scope, filters, format);
    } catch {
      toast.error(t('analytics.exportError'));
    } finally {
      setExporting(false);
    }
  }

  return (
    <div className="grid grid-cols-1 gap-3" data-testid="logs-tab">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <LogFiltersBar filters={filters} facets={facets.data} showUsers={showUsers} onChange={setFilters} />
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" disabled={exporting}>
              <Download /> {exporting ? t('analytics.exporting') : t('analytics.export')}
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => void exportAs('csv')}>
              {t('analytics.exportCsv')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => void exportAs('jsonl')}>
              {t('analytics.exportJsonl')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {logs.isPending ? (
        <div role="status" aria-label={t('common.loading')} className="grid gap-2">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="h-10 animate-pulse rounded-md bg-muted" />
          ))}
        </div>
      ) : logs.isError ? (
        <LoadError onRetry={() => void logs.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={ScrollText}
          title={t('analytics.logs.empty')}
          text={t('analytics.logs.emptyText')}
        />
      ) : (
        <div className="rounded-xl border bg-card">
          <Table data-testid="logs-table" stack>
            <TableHeader>
              <TableRow>
                <TableHead>{t('analytics.logs.time')}</TableHead>
                <TableHead>{t('analytics.logs.chatbot')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('analytics.logs.user')}</TableHead>
                <TableHead className="hidden md:table-cell">{t('analytics.logs.model')}</TableHead>
                <TableHead>{t('analytics.logs.status')}</TableHead>
                <TableHead className="hidden text-right sm:table-cell">
                  {t('analytics.logs.duration')}
                </TableHead>
                <TableHead className="hidden lg:table-cell">{t('analytics.logs.message')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((log) => (
                <TableRow
                  key={log.id}
                  className="cursor-pointer"
                  tabIndex={0}
                  aria-label={t('analytics.logs.open', { chatbot: log.chatbot_name })}
                  onClick={() => setOpenId(log.id)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' || e.key === ' ') {
                      e.preventDefault();
                      setOpenId(log.id);
                    }
                  }}
                >
                  <TableCell className="whitespace-nowrap tabular-nums" label={t('analytics.logs.time')}>
                    {formatInstant(log.created_at, lang, true)}
                  </TableCell>
                  <TableCell className="max-w-36 truncate" label={t('analytics.logs.chatbot')}>
                    {log.chatbot_name || '–'}
                  </TableCell>
                  <TableCell className="hidden max-w-48 truncate md:table-cell">
                    {log.user_email ?? '–'}
                  </TableCell>
                  <TableCell className="hidden md:table-cell">{log.model_name}</TableCell>
                  <TableCell label={t('analytics.logs.status')}>
                    <StatusBadge status={log.status} />
                  </TableCell>
                  <TableCell className="hidden text-right tabular-nums sm:table-cell">
                    {formatMs(log.total_ms, lang)}
                  </TableCell>
                  <TableCell className="hidden max-w-72 truncate text-muted-foreground lg:table-cell">
                    {log.user_message_preview}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {logs.hasNextPage ? (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={logs.isFetchingNextPage}
          onClick={() => void logs.fetchNextPage()}
        >
          {logs.isFetchingNextPage ? t('common.loading') : t('analytics.logs.more')}
        </Button>
      ) : null}
      <LogDrawer id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
