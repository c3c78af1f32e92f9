import { ChevronRight } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Markdown } from '@/features/chat/markdown';
import { useNodeTitle } from '../node-text';
import { formatSeconds, totalSeconds } from './format';
import { useRunStore } from './run-store';
import { StatusBadge } from './status-badge';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Node labels from the draft on the canvas (`data.label`), for runs loaded without node_started events. */
export function draftLabels(nodes: readonly unknown[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const node of nodes) {
    if (!isRecord(node) || typeof node.id !== 'string') continue;
    const label = isRecord(node.data) ? node.data.label : undefined;
    labels[node.id] = typeof label === 'string' && label.trim() ? label : node.id;
  }
  return labels;
}

/** The nodes in the order they ran, then those only known by a status (skipped ones). */
function useNodeRows(labels: Record<string, string>) {
  const title = useNodeTitle();
  const nodes = useRunStore((s) => s.nodes);
  const nodeStatus = useRunStore((s) => s.nodeStatus);
  const executions = useRunStore((s) => s.executions);
  return useMemo(() => {
    const ids = nodes.map((n) => n.id);
    for (const id of Object.keys(nodeStatus)) if (!ids.includes(id)) ids.push(id);
    return ids.map((id) => {
      const known = nodes.find((n) => n.id === id);
      const label = title(known?.type, known && known.label !== id ? known.label : labels[id]) || id;
      return { id, label, status: nodeStatus[id], executions: executions[id] };
    });
  }, [nodes, nodeStatus, executions, labels, title]);
}

/** The live or loaded run: its status, each node with status and time, then the output or error. */
export function RunProgress({ labels = {} }: { labels?: Record<string, string> }) {
  const { t } = useTranslation();
  const rows = useNodeRows(labels);
  const { status, finalOutput, error, streamed, select } = useRunStore(
    useShallow((s) => ({
      status: s.status,
      finalOutput: s.finalOutput,
      error: s.error,
      // While a model streams, its text so far stands in for the output.
      streamed: Object.values(s.streamedText).at(-1) ?? '',
      select: s.selectExecution,
    })),
  );
  if (status === 'idle') return null;
  const live = status === 'queued' || status === 'running';
  return (
    <section aria-label={t('flowRuns.progress.title')} className="grid gap-3" data-testid="run-progress">
      <div className="flex items-center gap-2">
        <h3 className="text-sm font-semibold">{t('flowRuns.progress.title')}</h3>
        <StatusBadge status={status} />
      </div>
      {rows.length > 0 ? (
        <ol className="grid max-h-56 gap-1 overflow-y-auto rounded-lg border p-1">
          {rows.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                onClick={() => select(row.id)}
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                aria-label={t('flowRuns.progress.inspect', { node: row.label })}
              >
                <span className="min-w-0 flex-1 truncate">{row.label}</span>
                {row.executions && row.executions.length > 1 && (
                  <span className="text-xs text-muted-foreground">
                    {t('flowRuns.progress.items', { count: row.executions.length })}
                  </span>
                )}
                <span className="w-16 text-right font-mono text-xs text-muted-foreground">
                  {formatSeconds(totalSeconds(row.executions))}
                </span>
                {row.status && <StatusBadge status={row.status} />}
                <ChevronRight className="size-3.5 text-muted-foreground" />
              </button>
            </li>
          ))}
        </ol>
      ) : (
        live && <p className="text-sm text-muted-foreground">{t('flowRuns.progress.waiting')}</p>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {t('chatPage.messages.error', { message: error })}
        </p>
      )}
      {status === 'succeeded' && (
        <div className="grid gap-1.5">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            {t('flowRuns.progress.output')}
          </h4>
          <div className="rounded-lg border bg-muted/30 p-3">
            {finalOutput ? (
              <Markdown text={finalOutput} />
            ) : (
              <p className="text-sm italic text-muted-foreground">{t('chatPage.messages.emptyOutput')}</p>
            )}
          </div>
        </div>
      )}
      {live && streamed && (
        <div className="rounded-lg border bg-muted/30 p-3">
          <Markdown text={streamed} />
        </div>
      )}
    </section>
  );
}
