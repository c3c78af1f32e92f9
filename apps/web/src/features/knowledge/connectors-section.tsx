import type { Connector } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Activity, Database, Loader2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import {
  connectorsKey,
  createConnector,
  deleteConnector,
  testConnector,
  updateConnector,
  useConnectors,
  useSupportedConnectors,
} from './queries';
import { SettingsDialog } from './settings-dialog';
import { settingsFormBody } from './settings-form';
import { LoadError } from '@/components/load-error';
import { ListSkeleton } from './states';

/** The workspace's connectors: the built-in store (fixed) and external vector stores. */
export function ConnectorsSection({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const connectors = useConnectors(workspaceId);
  const supported = useSupportedConnectors();
  const [dialog, setDialog] = useState<{ connector: Connector | null } | null>(null);
  const [deleting, setDeleting] = useState<Connector | null>(null);
  const creatable = (supported.data ?? []).filter((s) => s.creatable);
  const refresh = () => queryClient.invalidateQueries({ queryKey: connectorsKey(workspaceId) });
  const external = (connectors.data ?? []).filter((c) => c.kind !== 'builtin');

  async function remove(connector: Connector) {
    try {
      await deleteConnector(connector.id);
      toast.success(t('knowledge.connectors.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  const add = () => setDialog({ connector: null });
  return (
    <section aria-labelledby="connectors-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="connectors-heading" className="text-lg font-semibold tracking-tight">
            {t('knowledge.connectors.title')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('knowledge.connectors.description')}</p>
        </div>
        <Button variant="outline" onClick={add}>
          <Plus /> {t('knowledge.connectors.add')}
        </Button>
      </div>
      {connectors.isPending ? (
        <ListSkeleton />
      ) : connectors.isError ? (
        <LoadError onRetry={() => void connectors.refetch()} />
      ) : (
        <>
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {connectors.data.map((connector) => (
              <li key={connector.id}>
                <ConnectorCard
                  connector={connector}
                  kindLabel={t(`knowledge.kinds.${connector.kind}`)}
                  onEdit={() => setDialog({ connector })}
                  onDelete={() => setDeleting(connector)}
                />
              </li>
            ))}
          </ul>
          {external.length === 0 ? (
            <EmptyState
              icon={Database}
              title={t('knowledge.connectors.emptyTitle')}
              text={t('knowledge.connectors.emptyText')}
              action={
                <Button variant="outline" onClick={add}>
                  <Plus /> {t('knowledge.connectors.add')}
                </Button>
              }
            />
          ) : null}
        </>
      )}
      <SettingsDialog
        open={dialog !== null}
        item={dialog?.connector ?? null}
        kinds={creatable}
        kindsState={supported.status}
        texts={{
          pickTitle: t('knowledge.connectors.pickTitle'),
          pickDescription: t('knowledge.connectors.pickDescription'),
          createTitle: (kind) => t('knowledge.connectors.createTitle', { kind }),
          editTitle: t('knowledge.connectors.editTitle', { name: dialog?.connector?.name }),
          done: t(dialog?.connector ? 'knowledge.connectors.updated' : 'knowledge.connectors.created'),
        }}
        onSubmit={async (kind, form) => {
          const body = settingsFormBody(kind.fields, form);
          if (dialog?.connector) await updateConnector(dialog.connector.id, body);
          else
            await createConnector({
              workspace_id: workspaceId,
              kind: kind.kind as 'pgvector' | 'qdrant',
              ...body,
            });
          await refresh();
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDelete
        open={deleting !== null}
        title={t('knowledge.connectors.deleteTitle')}
        content={t('knowledge.connectors.deleteContent', { name: deleting?.name })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </section>
  );
}

function ConnectorCard({
  connector,
  kindLabel,
  onEdit,
  onDelete,
}: {
  connector: Connector;
  kindLabel: string;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const builtin = connector.kind === 'builtin';

  async function test() {
    setTesting(true);
    try {
      const result = await testConnector(connector.id);
      const detail = t('knowledge.connectors.testDetail', { detail: result.detail, n: result.collections });
      if (result.ok) toast.success(t('knowledge.connectors.testOk'), detail);
      else toast.error(t('knowledge.connectors.testFailed'), detail);
    } catch (error) {
      toast.error(t('knowledge.connectors.testFailed'), errorText(error, t('errors.unknown')));
    } finally {
      setTesting(false);
    }
  }

  const url = connector.settings.url;
  return (
    <Card
      role="article"
      aria-label={connector.name}
      className="flex h-full flex-col"
      data-testid="connector-card"
    >
      <div className="flex items-start justify-between gap-2 p-4 pb-2">
        <div className="grid min-w-0 gap-1.5">
          <h3 className="truncate font-semibold leading-tight" title={connector.name}>
            {builtin ? t('knowledge.connectors.builtinName') : connector.name}
          </h3>
          <div className="flex flex-wrap gap-1.5">
            <Badge variant="secondary" className="w-fit text-xs font-medium normal-case tracking-normal">
              {kindLabel}
            </Badge>
          </div>
        </div>
        {builtin ? null : (
          <div className="flex shrink-0">
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('knowledge.edit', { name: connector.name })}
              onClick={onEdit}
            >
              <Pencil />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label={t('knowledge.delete', { name: connector.name })}
              onClick={onDelete}
            >
              <Trash2 />
            </Button>
          </div>
        )}
      </div>
      <div className="grid gap-1 px-4 text-sm text-muted-foreground">
        <p className="line-clamp-2">
          {builtin ? t('knowledge.connectors.builtinText') : connector.description || '—'}
        </p>
        {url ? (
          <p className="truncate font-mono text-xs" title={url}>
            {url}
          </p>
        ) : null}
        {connector.secret_hint ? (
          <p className="font-mono text-xs">
            {t('knowledge.connectors.secret')}: {connector.secret_hint}
          </p>
        ) : null}
      </div>
      <div className="mt-auto p-4 pt-3">
        <Button size="sm" variant="outline" onClick={() => void test()} disabled={testing}>
          {testing ? <Loader2 className="animate-spin" /> : <Activity />}
          {t('knowledge.connectors.test')}
        </Button>
      </div>
    </Card>
  );
}
