import type { Run } from '@atelier/schemas';
import { runStatuses, type RunStatus } from '@atelier/schemas/constants';
import { Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorText } from '@/lib/api-client';
import { formatSeconds, formatTime, runSeconds } from './format';
import { useRuns } from './queries';
import { openRun } from './run-client';
import { StatusBadge } from './status-badge';

export interface RunsListProps {
  chatbotId: string;
  /** Called once the run is loaded into the store (the editor may close its popover then). */
  onOpen(runId: string): void;
}

const ALL = 'all';

function RunRow({ run, opening, onOpen }: { run: Run; opening: boolean; onOpen(): void }) {
  const { t, i18n } = useTranslation();
  const started = run.started_at ?? run.created_at;
  return (
    <TableRow
      className="cursor-pointer"
      tabIndex={0}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
      aria-label={t('flowRuns.list.open', { time: formatTime(started, i18n.language) })}
    >
      <TableCell>
        <StatusBadge status={run.status} />
      </TableCell>
      <TableCell className="text-xs">{t(`flowRuns.list.triggers.${run.trigger}`)}</TableCell>
      <TableCell className="text-xs">{formatTime(started, i18n.language)}</TableCell>
      <TableCell className="text-right font-mono text-xs">
        {opening ? <Loader2 className="ml-auto size-3.5 animate-spin" /> : formatSeconds(runSeconds(run))}
      </TableCell>
    </TableRow>
  );
}

/** The chatbot's past runs, newest first; opening one shows it on the canvas and in the panels. */
export function RunsList({ chatbotId, onOpen }: RunsListProps) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<RunStatus | undefined>();
  const runs = useRuns(chatbotId, status);
  const [opening, setOpening] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);

  async function open(runId: string) {
    setOpening(runId);
    setOpenError(null);
    try {
      await openRun(runId);
      onOpen(runId);
    } catch (error) {
      setOpenError(errorText(error, t('flowRuns.list.openFailed')));
    } finally {
      setOpening(null);
    }
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-3" data-testid="runs-list">
      <div className="flex items-center gap-2">
        <h3 className="flex-1 text-sm font-semibold">{t('flowRuns.list.title')}</h3>
        <Select
          value={status ?? ALL}
          onValueChange={(v) => setStatus(v === ALL ? undefined : (v as RunStatus))}
        >
          <SelectTrigger className="h-8 w-36 text-xs" aria-label={t('flowRuns.list.filter')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t('flowRuns.list.all')}</SelectItem>
            {runStatuses.map((s) => (
              <SelectItem key={s} value={s}>
                {t(`flowRuns.status.${s}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button
          type="button"
          size="icon"
          variant="ghost"
          className="size-8"
          onClick={() => void runs.refetch()}
          aria-label={t('flowRuns.list.refresh')}
        >
          <RefreshCw className={runs.isFetching ? 'animate-spin' : undefined} />
        </Button>
      </div>
      {openError && (
        <p role="alert" className="text-sm text-destructive">
          {openError}
        </p>
      )}
      {runs.isPending ? (
        <p className="text-sm text-muted-foreground">{t('flowRuns.list.loading')}</p>
      ) : runs.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorText(runs.error, t('flowRuns.list.loadFailed'))}
        </p>
      ) : runs.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('flowRuns.list.empty')}</p>
      ) : (
        <div className="max-h-80 overflow-y-auto">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('flowRuns.list.status')}</TableHead>
                <TableHead>{t('flowRuns.list.trigger')}</TableHead>
                <TableHead>{t('flowRuns.list.started')}</TableHead>
                <TableHead className="text-right">{t('flowRuns.list.duration')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {runs.data.map((run) => (
                <RunRow
                  key={run.id}
                  run={run}
                  opening={opening === run.id}
                  onOpen={() => void open(run.id)}
                />
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}
