import type { RunNodeExecution } from '@atelier/schemas';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { formatSeconds } from './format';
import { JsonTree } from './json-tree';
import { findMedia, type Media } from './media';
import { useRunStore } from './run-store';
import { StatusBadge } from './status-badge';

function MediaList({ media }: { media: Media[] }) {
  const { t } = useTranslation();
  if (media.length === 0) return null;
  return (
    <div className="grid gap-2">
      {media.map((item, i) =>
        item.kind === 'image' ? (
          <figure key={i} className="grid gap-1">
            <img
              src={item.src}
              alt={t('flowRuns.execution.imageAlt', { name: item.label })}
              loading="lazy"
              referrerPolicy="no-referrer"
              className="max-h-64 w-auto max-w-full rounded-md border object-contain"
            />
            <figcaption className="font-mono text-[10px] text-muted-foreground">{item.label}</figcaption>
          </figure>
        ) : (
          <figure key={i} className="grid gap-1">
            <audio controls preload="metadata" src={item.src} className="w-full">
              <track kind="captions" />
            </audio>
            <figcaption className="font-mono text-[10px] text-muted-foreground">{item.label}</figcaption>
          </figure>
        ),
      )}
    </div>
  );
}

function Section({ title, value }: { title: string; value: unknown }) {
  const media = findMedia(value);
  return (
    <section className="grid gap-1.5">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{title}</h4>
      <MediaList media={media} />
      <JsonTree value={value} />
    </section>
  );
}

function ExecutionView({ execution, many }: { execution: RunNodeExecution; many: boolean }) {
  const { t } = useTranslation();
  return (
    <article className="grid gap-3 rounded-lg border p-3" data-testid="node-execution">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        {many && execution.iteration_index !== null && (
          <span className="font-medium">
            {t('flowRuns.execution.item', { index: execution.iteration_index })}
          </span>
        )}
        <StatusBadge status={execution.status} />
        <span className="text-xs text-muted-foreground">
          {t('flowRuns.execution.duration', { duration: formatSeconds(execution.duration_seconds) })}
        </span>
      </div>
      {execution.error && (
        <p
          role="alert"
          className="whitespace-pre-wrap break-words rounded-md bg-destructive/10 px-2 py-1.5 text-sm text-destructive"
        >
          {execution.error}
        </p>
      )}
      {execution.parameters !== null && execution.parameters !== undefined && (
        <Section title={t('flowRuns.execution.parameters')} value={execution.parameters} />
      )}
      <Section title={t('flowRuns.execution.outputs')} value={execution.outputs} />
    </article>
  );
}

/**
 * The selected node's execution(s) in the inspected run: status, error, time, parameters and
 * outputs, with images and sounds shown as such. Renders nothing when no node is selected.
 */
export function ExecutionPanel() {
  const { t } = useTranslation();
  const nodeId = useRunStore((s) => s.selectedExecutionNodeId);
  const executions = useRunStore((s) => (nodeId ? s.executions[nodeId] : undefined));
  const status = useRunStore((s) => (nodeId ? s.nodeStatus[nodeId] : undefined));
  const label = useRunStore((s) => s.nodes.find((n) => n.id === nodeId)?.label);
  const close = useRunStore((s) => s.clearSelectedExecution);
  if (!nodeId) return null;
  const list = executions ?? [];
  return (
    <aside
      aria-label={t('flowRuns.execution.title')}
      data-testid="execution-panel"
      className="flex max-h-full w-full flex-col gap-3 overflow-y-auto rounded-xl border bg-card p-4 text-card-foreground shadow-lg sm:w-96"
    >
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-sm font-semibold">{label ?? nodeId}</h3>
          <p className="font-mono text-[10px] text-muted-foreground">{nodeId}</p>
        </div>
        {status && <StatusBadge status={status} />}
        <Button
          type="button"
          size="icon"
          variant="ghost"
          className="size-7"
          onClick={close}
          aria-label={t('flowRuns.close')}
        >
          <X />
        </Button>
      </header>
      {list.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {status === 'running'
            ? t('flowRuns.execution.running')
            : status === 'skipped'
              ? t('flowRuns.execution.skipped')
              : t('flowRuns.execution.none')}
        </p>
      ) : (
        list.map((execution, i) => (
          <ExecutionView
            key={`${execution.iteration_index ?? 'once'}-${i}`}
            execution={execution}
            many={list.length > 1}
          />
        ))
      )}
    </aside>
  );
}
