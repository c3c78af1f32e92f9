import type { ModelWithProvider, Provider } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Boxes, Download, Plug, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { errorText } from '@/lib/api-client';
import { useSelectedWorkspace } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { ImportModelsDialog } from './import-models-dialog';
import { ModelFormDialog } from './model-form-dialog';
import { ModelsTable } from './models-table';
import { ProviderDialog } from './provider-dialog';
import { ProviderList } from './provider-list';
import {
  deleteModel,
  deleteProvider,
  modelsKey,
  providersKey,
  useModels,
  useProviderKinds,
  useProviders,
} from './queries';
import { ConfirmDelete, LoadError, Loading } from './states';

/** /providers: the workspace's model providers and the models they serve. */
export default function ProvidersPage() {
  const workspace = useSelectedWorkspace();
  // The main layout shows the onboarding guide instead while no workspace is selected.
  return workspace ? <ProvidersView key={workspace.id} workspaceId={workspace.id} /> : null;
}

function ProvidersView({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const providers = useProviders(workspaceId);
  const models = useModels(workspaceId);
  const kinds = useProviderKinds();
  const [providerDialog, setProviderDialog] = useState<{ provider: Provider | null } | null>(null);
  const [importing, setImporting] = useState<{ providerId: string | null } | null>(null);
  const [modelDialog, setModelDialog] = useState<{ model: ModelWithProvider | null } | null>(null);
  const [deletingProvider, setDeletingProvider] = useState<Provider | null>(null);
  const [deletingModel, setDeletingModel] = useState<ModelWithProvider | null>(null);

  const providerList = providers.data ?? [];
  const modelList = models.data ?? [];
  const hasProviders = providerList.length > 0;

  async function remove(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: providersKey(workspaceId) }),
      queryClient.invalidateQueries({ queryKey: modelsKey(workspaceId) }),
    ]);
  }

  const addProvider = () => setProviderDialog({ provider: null });
  return (
    <div className="grid gap-8" data-testid="providers-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('providers.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('providers.description')}</p>
        </div>
        <Button onClick={addProvider}>
          <Plus /> {t('providers.add')}
        </Button>
      </div>

      <section aria-labelledby="providers-heading" className="grid gap-3">
        <h2 id="providers-heading" className="text-lg font-semibold tracking-tight">
          {t('providers.list.title')}
        </h2>
        {providers.isPending ? (
          <Loading />
        ) : providers.isError ? (
          <LoadError />
        ) : hasProviders ? (
          <ProviderList
            providers={providerList}
            kinds={kinds.data ?? []}
            models={modelList}
            onEdit={(provider) => setProviderDialog({ provider })}
            onImport={(provider) => setImporting({ providerId: provider.id })}
            onDelete={setDeletingProvider}
          />
        ) : (
          <EmptyState
            icon={Plug}
            title={t('providers.list.emptyTitle')}
            text={t('providers.list.emptyText')}
            action={
              <Button variant="outline" onClick={addProvider}>
                <Plus /> {t('providers.list.emptyAction')}
              </Button>
            }
          />
        )}
      </section>

      <section aria-labelledby="models-heading" className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="models-heading" className="text-lg font-semibold tracking-tight">
            {t('providers.models.title')}
          </h2>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              disabled={!hasProviders}
              onClick={() => setImporting({ providerId: null })}
            >
              <Download /> {t('providers.list.import')}
            </Button>
            <Button
              variant="outline"
              disabled={!hasProviders}
              onClick={() => setModelDialog({ model: null })}
            >
              <Plus /> {t('providers.models.add')}
            </Button>
          </div>
        </div>
        {models.isPending ? (
          <Loading />
        ) : models.isError ? (
          <LoadError />
        ) : modelList.length > 0 ? (
          <div className="rounded-xl border bg-card">
            <ModelsTable
              models={modelList}
              onEdit={(model) => setModelDialog({ model })}
              onDelete={setDeletingModel}
            />
          </div>
        ) : (
          <EmptyState
            icon={Boxes}
            title={t('providers.models.emptyTitle')}
            text={t(hasProviders ? 'providers.models.emptyText' : 'providers.models.emptyNoProvider')}
            action={
              hasProviders ? (
                <Button variant="outline" onClick={() => setImporting({ providerId: null })}>
                  <Download /> {t('providers.models.emptyAction')}
                </Button>
              ) : undefined
            }
          />
        )}
      </section>

      <ProviderDialog
        open={providerDialog !== null}
        provider={providerDialog?.provider ?? null}
        workspaceId={workspaceId}
        onClose={() => setProviderDialog(null)}
      />
      <ImportModelsDialog
        open={importing !== null}
        providerId={importing?.providerId ?? null}
        providers={providerList}
        models={modelList}
        workspaceId={workspaceId}
        onClose={() => setImporting(null)}
      />
      <ModelFormDialog
        open={modelDialog !== null}
        model={modelDialog?.model ?? null}
        providers={providerList}
        workspaceId={workspaceId}
        onClose={() => setModelDialog(null)}
      />
      <ConfirmDelete
        open={deletingProvider !== null}
        title={t('providers.deleteProvider.title')}
        content={t('providers.deleteProvider.content', { name: deletingProvider?.name })}
        onCancel={() => setDeletingProvider(null)}
        onConfirm={() =>
          deletingProvider &&
          void remove(() => deleteProvider(deletingProvider.id), t('providers.deleteProvider.done'))
        }
      />
      <ConfirmDelete
        open={deletingModel !== null}
        title={t('providers.deleteModel.title')}
        content={t('providers.deleteModel.content', {
          name: deletingModel?.name || deletingModel?.model_name,
        })}
        onCancel={() => setDeletingModel(null)}
        onConfirm={() =>
          deletingModel && void remove(() => deleteModel(deletingModel.id), t('providers.deleteModel.done'))
        }
      />
    </div>
  );
}
