import { Database, Server } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { PreviewTable } from './preview-table';
import { useCollectionMetadata, useConnectorCollections } from './queries';
import { ListSkeleton } from './states';
import { useWizardStore } from './wizard-store';

/** Step 1: where the chunks live; for an external store, which of its collections (with a preview). */
export function SourceStep({ editing }: { editing: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const data = useWizardStore((s) => s.data);
  const connectors = useWizardStore((s) => s.connectors);
  const preview = useWizardStore((s) => s.preview);
  const { setData, loadPreview } = useWizardStore.getState();
  const external = data.connector_id;
  const collections = useConnectorCollections(external);
  const metadata = useCollectionMetadata(external, data.collection_name);

  useEffect(() => {
    if (external && data.collection_name && preview === null)
      void loadPreview(external, data.collection_name, 0);
  }, [external, data.collection_name, preview, loadPreview]);

  if (connectors === null) return <ListSkeleton count={2} />;
  const builtin = connectors.find((c) => c.kind === 'builtin');
  const chosen = external ?? builtin?.id ?? null;

  return (
    <div className="grid gap-5">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold tracking-tight">{t('knowledge.wizard.source.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('knowledge.wizard.source.description')}</p>
      </div>
      <fieldset className="grid gap-2" disabled={editing}>
        <legend className="mb-2 text-sm font-medium">{t('knowledge.wizard.source.connector')}</legend>
        <div role="radiogroup" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {connectors.map((c) => {
            const isBuiltin = c.kind === 'builtin';
            const active = chosen === c.id;
            return (
              <button
                key={c.id}
                type="button"
                role="radio"
                aria-checked={active}
                disabled={editing}
                onClick={() => setData({ connector_id: isBuiltin ? null : c.id })}
                className={cn(
                  'flex items-start gap-3 rounded-lg border p-3 text-left transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed',
                  active ? 'border-primary bg-primary/5' : 'hover:bg-accent disabled:opacity-60',
                )}
              >
                {isBuiltin ? (
                  <Database className="mt-0.5 size-4 text-primary" />
                ) : (
                  <Server className="mt-0.5 size-4 text-primary" />
                )}
                <span className="grid min-w-0 gap-0.5">
                  <span className="truncate font-medium">
                    {isBuiltin ? t('knowledge.connectors.builtinName') : c.name}
                  </span>
                  <span className="text-xs text-muted-foreground">{t(`knowledge.kinds.${c.kind}`)}</span>
                </span>
              </button>
            );
          })}
        </div>
        {editing ? (
          <p className="text-xs text-muted-foreground">{t('knowledge.wizard.source.fixed')}</p>
        ) : null}
      </fieldset>

      {external === null ? (
        <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
          {t(editing ? 'knowledge.wizard.source.builtinEdit' : 'knowledge.wizard.source.builtinNote')}
        </p>
      ) : (
        <div className="grid gap-4">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-collection`}>{t('knowledge.wizard.source.collection')}</Label>
            {collections.isPending ? (
              <div className="h-9 animate-pulse rounded-md bg-muted" />
            ) : collections.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {errorText(collections.error, t('errors.unknown'))}
              </p>
            ) : collections.data.length === 0 ? (
              <p className="text-sm text-muted-foreground">{t('knowledge.wizard.source.noCollections')}</p>
            ) : (
              <Select
                value={data.collection_name ?? ''}
                onValueChange={(name) => setData({ collection_name: name })}
                disabled={editing}
              >
                <SelectTrigger id={`${id}-collection`}>
                  <SelectValue placeholder={t('knowledge.wizard.source.chooseCollection')} />
                </SelectTrigger>
                <SelectContent>
                  {collections.data.map((c) => (
                    <SelectItem key={c.name} value={c.name}>
                      {c.name}
                      {c.dimension ? ` · ${c.dimension}d` : ''}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </div>
          {data.collection_name && metadata.data ? (
            <dl className="grid grid-cols-2 gap-3 rounded-lg border p-3 text-sm sm:grid-cols-4">
              {(
                [
                  ['dimension', metadata.data.dimension],
                  ['distance', t(`knowledge.distances.${metadata.data.distance}`)],
                  ['count', metadata.data.count],
                  ['writable', t(metadata.data.writable ? 'knowledge.yes' : 'knowledge.no')],
                ] as const
              ).map(([key, value]) => (
                <div key={key}>
                  <dt className="text-xs text-muted-foreground">
                    {t(`knowledge.wizard.source.meta.${key}`)}
                  </dt>
                  <dd className="font-medium tabular-nums">{value}</dd>
                </div>
              ))}
              <div className="col-span-2 sm:col-span-4">
                <dt className="text-xs text-muted-foreground">{t('knowledge.wizard.source.meta.keys')}</dt>
                <dd className="break-words font-mono text-xs">
                  {metadata.data.metadata_keys.join(', ') || '—'}
                </dd>
              </div>
            </dl>
          ) : null}
          {data.collection_name ? (
            <PreviewTable
              page={preview}
              onPage={(offset) =>
                external && data.collection_name && void loadPreview(external, data.collection_name, offset)
              }
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
