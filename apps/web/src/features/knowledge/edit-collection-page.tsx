import type { RagCollection } from '@atelier/schemas';
import { Link, useParams } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { isNotFoundError } from '@/features/studio/logic';
import { useSelectedWorkspace } from '@/stores/app-store';
import { CollectionWizard } from './collection-wizard';
import { DocumentsPanel } from './documents-panel';
import { collectionKey, collectionsKey, useRagCollection } from './queries';
import { RetrievalBox } from './retrieval-box';
import { LoadError } from '@/components/load-error';
import { ListSkeleton } from './states';
import { TabsBar, TabsContent, TabsRoot } from '@/components/ui/tabs';
import { useWizardStore } from './wizard-store';

const TABS = ['documents', 'retrieval', 'settings'] as const;
type Tab = (typeof TABS)[number];

/** /knowledges/collections/edit/{id}: the collection's documents, a retrieval test, and its settings wizard. */
export default function EditCollectionPage() {
  const { id } = useParams({ strict: false });
  const workspace = useSelectedWorkspace();
  if (!id || !workspace) return null;
  return <EditView key={id} id={id} workspaceId={workspace.id} />;
}

function EditView({ id, workspaceId }: { id: string; workspaceId: string }) {
  const { t } = useTranslation();
  const collection = useRagCollection(id);
  const back = (
    <Link
      to="/knowledges"
      className="flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" /> {t('knowledge.title')}
    </Link>
  );
  if (collection.isPending) {
    return (
      <div className="mx-auto grid w-full max-w-5xl gap-6">
        {back}
        <ListSkeleton count={2} />
      </div>
    );
  }
  if (collection.isError) {
    return (
      <div className="mx-auto grid w-full max-w-5xl gap-6">
        {back}
        {isNotFoundError(collection.error) ? (
          <EmptyState
            icon={SearchX}
            title={t('knowledge.collections.notFound')}
            text={t('knowledge.collections.notFoundText')}
            action={
              <Link to="/knowledges" className={buttonVariants({ variant: 'outline' })}>
                {t('knowledge.collections.backToList')}
              </Link>
            }
          />
        ) : (
          <LoadError onRetry={() => void collection.refetch()} />
        )}
      </div>
    );
  }
  return <CollectionView collection={collection.data} workspaceId={workspaceId} back={back} />;
}

function CollectionView({
  collection,
  workspaceId,
  back,
}: {
  collection: RagCollection;
  workspaceId: string;
  back: React.ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('documents');
  const dataId = useWizardStore((s) => s.data.id);
  const { load, reset } = useWizardStore.getState();

  // The wizard edits this collection; after a reset (data cleared) it starts again from what is saved.
  useEffect(() => {
    if (dataId !== collection.id) load(collection);
  }, [dataId, collection, load]);
  useEffect(() => reset, [reset]);

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6" data-testid="collection-page">
      <div className="grid gap-2">
        {back}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 truncate text-2xl font-semibold tracking-tight">{collection.name}</h1>
          <Badge variant="secondary" className="text-xs font-medium normal-case tracking-normal">
            {t(`knowledge.kinds.${collection.connector_kind}`)}
          </Badge>
        </div>
        {collection.description ? (
          <p className="text-sm text-muted-foreground">{collection.description}</p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          {t('knowledge.collections.documentCount', { count: collection.document_count })} ·{' '}
          {t('knowledge.collections.chunkCount', { count: collection.chunk_count })}
          {collection.vector_indexed === false && collection.chunk_count > 0
            ? ` · ${t('knowledge.collections.indexing')}`
            : null}
        </p>
      </div>
      <TabsRoot value={tab} onValueChange={(v) => setTab(v as Tab)} className="grid gap-4">
        <TabsBar
          label={collection.name}
          tabs={TABS.map((v) => ({ value: v, label: t(`knowledge.collectionTabs.${v}`) }))}
        />
        <TabsContent value="documents">
          <DocumentsPanel collection={collection} />
        </TabsContent>
        <TabsContent value="retrieval">
          <RetrievalBox collection={collection} />
        </TabsContent>
        <TabsContent value="settings">
          {dataId === collection.id ? (
            <CollectionWizard
              workspaceId={workspaceId}
              editing
              modelLocked={collection.document_count > 0}
              onSaved={() => {
                void queryClient.invalidateQueries({ queryKey: collectionKey(collection.id) });
                void queryClient.invalidateQueries({ queryKey: collectionsKey(workspaceId) });
                // Back to the first step for the next edit; the data already is what was saved.
                useWizardStore.setState({ step: 0 });
                setTab('documents');
              }}
            />
          ) : (
            <ListSkeleton count={1} />
          )}
        </TabsContent>
      </TabsRoot>
    </div>
  );
}
