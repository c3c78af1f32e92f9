import type { RagCollection } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Library, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { collectionsKey, deleteRagCollection, useEmbeddingModels, useRagCollections } from './queries';
import { LoadError } from '@/components/load-error';
import { ListSkeleton } from './states';

const CREATE = '/knowledges/collections/create';

/** The workspace's RAG collections as cards: where they live, their model, and what they hold. */
export function CollectionsSection({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const collections = useRagCollections(workspaceId);
  const models = useEmbeddingModels(workspaceId);
  const [deleting, setDeleting] = useState<RagCollection | null>(null);
  const modelName = (id: string | null) => models.data?.find((m) => m.id === id)?.name ?? (id ? '…' : '—');

  async function remove(collection: RagCollection) {
    try {
      await deleteRagCollection(collection.id);
      toast.success(t('knowledge.collections.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await queryClient.invalidateQueries({ queryKey: collectionsKey(workspaceId) });
  }

  return (
    <section aria-labelledby="collections-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="collections-heading" className="text-lg font-semibold tracking-tight">
            {t('knowledge.collections.title')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('knowledge.collections.description')}</p>
        </div>
      </div>
      {collections.isPending ? (
        <ListSkeleton />
      ) : collections.isError ? (
        <LoadError onRetry={() => void collections.refetch()} />
      ) : collections.data.length === 0 ? (
        <EmptyState
          icon={Library}
          title={t('knowledge.collections.emptyTitle')}
          text={t('knowledge.collections.emptyText')}
          action={
            <Link to={CREATE} className={buttonVariants({ variant: 'outline' })}>
              <Plus /> {t('knowledge.collections.create')}
            </Link>
          }
        />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {collections.data.map((c) => (
            <li key={c.id}>
              <Card
                role="article"
                aria-label={c.name}
                className="flex h-full flex-col gap-3 p-4"
                data-testid="collection-card"
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="grid min-w-0 gap-1.5">
                    <Link
                      to="/knowledges/collections/edit/$id"
                      params={{ id: c.id }}
                      className="truncate font-semibold leading-tight hover:underline"
                      title={c.name}
                    >
                      {c.name}
                    </Link>
                    <div className="flex flex-wrap gap-1.5">
                      <Badge variant="secondary" className="text-xs font-medium normal-case tracking-normal">
                        {t(`knowledge.kinds.${c.connector_kind}`)}
                      </Badge>
                      {c.writable ? null : (
                        <Badge variant="outline" className="text-xs font-medium normal-case tracking-normal">
                          {t('knowledge.collections.readOnly')}
                        </Badge>
                      )}
                    </div>
                  </div>
                  <div className="flex shrink-0">
                    <Link
                      to="/knowledges/collections/edit/$id"
                      params={{ id: c.id }}
                      aria-label={t('knowledge.edit', { name: c.name })}
                      className={buttonVariants({ variant: 'ghost', size: 'icon' })}
                    >
                      <Pencil />
                    </Link>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t('knowledge.delete', { name: c.name })}
                      onClick={() => setDeleting(c)}
                    >
                      <Trash2 />
                    </Button>
                  </div>
                </div>
                {c.description ? (
                  <p className="line-clamp-2 text-sm text-muted-foreground">{c.description}</p>
                ) : null}
                <dl className="mt-auto grid grid-cols-3 gap-2 text-sm">
                  <div className="col-span-3 flex gap-2">
                    <dt className="text-muted-foreground">{t('knowledge.collections.model')}</dt>
                    <dd className="min-w-0 truncate">{modelName(c.embeddings_model_id)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('knowledge.collections.documents')}</dt>
                    <dd className="font-medium tabular-nums">{c.document_count}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">{t('knowledge.collections.chunks')}</dt>
                    <dd className="font-medium tabular-nums">{c.chunk_count}</dd>
                  </div>
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDelete
        open={deleting !== null}
        title={t('knowledge.collections.deleteTitle')}
        content={t('knowledge.collections.deleteContent', { name: deleting?.name })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </section>
  );
}
