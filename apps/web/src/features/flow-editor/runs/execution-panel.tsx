import { nodeDefinition, type RunNodeExecution } from '@atelier/schemas';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useNodeTitle } from '../node-text';
import { cn } from '@/lib/utils';
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

/** What the editor knows that a run does not: the nodes' labels and the models' names. */
export interface ExecutionNames {
  /** The node's label on the canvas. */
  label?(nodeId: string): string | undefined;
  /** A model's display name ("Fast model · Fake AI") from its id. */
  model?(modelId: string): string | undefined;
}

/**
 * The parameters as a person reads them: each model field (by the node's catalog entry) shows the model's
 * name instead of its id. The models chosen, by name, for the header line.
 */
export function readableParameters(
  nodeType: string,
  parameters: unknown,
  modelName: ExecutionNames['model'],
): { parameters: unknown; models: string[] } {
  const fields = nodeDefinition(nodeType)?.fieldMeta.filter((m) => m.kind === 'model') ?? [];
  if (!modelName || fields.length === 0 || typeof parameters !== 'object' || parameters === null)
    return { parameters, models: [] };
  const out: Record<string, unknown> = { ...(parameters as Record<string, unknown>) };
  const models: string[] = [];
  for (const { name } of fields) {
    const id = out[name];
    const shown = typeof id === 'string' && id ? modelName(id) : undefined;
    if (shown) {
      out[name] = shown;
      if (name === fields[0]!.name) models.push(shown);
    }
  }
  return { parameters: out, models };
}

function ExecutionView({
  execution,
  many,
  modelName,
}: {
  execution: RunNodeExecution;
  many: boolean;
  modelName: ExecutionNames['model'];
}) {
  const { t } = useTranslation();
  const { parameters, models } = readableParameters(execution.node_type, execution.parameters, modelName);
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
        {models.map((name) => (
          <span key={name} className="text-xs text-muted-foreground" data-testid="execution-model">
            {t('canvas.execution.model', { name })}
          </span>
        ))}
      </div>
      {execution.error && (
        <p
          role="alert"
          className="whitespace-pre-wrap break-words rounded-md bg-destructive/10 px-2 py-1.5 text-sm text-destructive"
        >
          {execution.error}
        </p>
      )}
      {parameters !== null && parameters !== undefined && (
        <Section title={t('flowRuns.execution.parameters')} value={parameters} />
      )}
      <Section title={t('flowRuns.execution.outputs')} value={execution.outputs} />
    </article>
  );
}

/**
 * The selected node's execution(s) in the inspected run: status, error, time, the model by its name,
 * parameters and outputs, with images and sounds shown as such. Its label once, its id once. Renders
 * nothing when no node is selected.
 */
export function ExecutionPanel({ names = {}, className }: { names?: ExecutionNames; className?: string }) {
  const { t } = useTranslation();
  const nodeId = useRunStore((s) => s.selectedExecutionNodeId);
  const executions = useRunStore((s) => (nodeId ? s.executions[nodeId] : undefined));
  const status = useRunStore((s) => (nodeId ? s.nodeStatus[nodeId] : undefined));
  const node = useRunStore((s) => s.nodes.find((n) => n.id === nodeId));
  const title = useNodeTitle();
  const runLabel = title(node?.type, node?.label);
  const close = useRunStore((s) => s.clearSelectedExecution);
  if (!nodeId) return null;
  const list = executions ?? [];
  // A run read back from the API knows its nodes by id only: the canvas's label names them.
  const label = [names.label?.(nodeId), runLabel].find((l) => l && l !== nodeId);
  return (
    <aside
      aria-label={t('flowRuns.execution.title')}
      data-testid="execution-panel"
      className={cn(
        'flex max-h-full w-full flex-col gap-3 overflow-y-auto rounded-xl border bg-card p-4 text-card-foreground shadow-lg sm:w-96',
        className,
      )}
    >
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          {label && <h3 className="truncate text-sm font-semibold">{label}</h3>}
          <p
            className={
              label ? 'font-mono text-[10px] text-muted-foreground' : 'font-mono text-sm font-semibold'
            }
          >
            {nodeId}
          </p>
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
            modelName={names.model}
          />
        ))
      )}
    </aside>
  );
}
