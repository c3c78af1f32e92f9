import type { RagCollection, RagDocument } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import {
  collectionKey,
  collectionsKey,
  addWebPages,
  deleteDocument,
  documentsKey,
  isIngesting,
  useDocuments,
} from './queries';
import { LoadError } from '@/components/load-error';
import { DocumentChunksDialog } from './document-chunks-dialog';
import { DocumentItem } from './document-item';
import { UploadZone } from './upload-zone';
import { WebPagesDialog } from './web-pages-dialog';

/**
 * Upload into a collection (or add web pages) and follow each document from queued to ready (or
 * failed).
 */
export function DocumentsPanel({ collection }: { collection: RagCollection }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const documents = useDocuments(collection.id);
  const [deleting, setDeleting] = useState<RagDocument | null>(null);
  const [showing, setShowing] = useState<RagDocument | null>(null);
  const [addingWeb, setAddingWeb] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: documentsKey(collection.id) });
    await queryClient.invalidateQueries({ queryKey: collectionKey(collection.id) });
  };

  // When the last document settles, the collection's counts have changed too.
  const ingesting = isIngesting(documents.data);
  const wasIngesting = useRef(false);
  useEffect(() => {
    if (wasIngesting.current && !ingesting) {
      void queryClient.invalidateQueries({ queryKey: collectionKey(collection.id) });
      void queryClient.invalidateQueries({ queryKey: collectionsKey(collection.workspace_id) });
    }
    wasIngesting.current = ingesting;
  }, [ingesting, collection.id, collection.workspace_id, queryClient]);

  /** A web page fetched again (smart insertion skips its chunks that did not change). */
  async function refetch(url: string) {
    try {
      await addWebPages(collection.id, { url });
      toast.success(t('knowledge.web.refetched'));
    } catch (error) {
      toast.error(t('knowledge.web.failed'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  async function remove(document: RagDocument) {
    try {
      await deleteDocument(collection.id, document.id);
      toast.success(t('knowledge.documents.deleted'));
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  if (!collection.writable) {
    return (
      <p className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground">
        {t('knowledge.documents.readOnly')}
      </p>
    );
  }
  return (
    <div className="grid gap-4">
      <UploadZone
        collectionId={collection.id}
        onUploaded={() => void refresh()}
        onAddFromWeb={() => setAddingWeb(true)}
      />
      <WebPagesDialog
        collectionId={collection.id}
        open={addingWeb}
        onClose={() => setAddingWeb(false)}
        onAdded={() => void refresh()}
      />
      <section aria-labelledby="documents-heading" className="grid gap-2">
        <h2 id="documents-heading" className="text-lg font-semibold tracking-tight">
          {t('knowledge.documents.title')}
        </h2>
        {documents.isPending ? (
          <div role="status" aria-label={t('common.loading')} className="grid gap-2">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-14 animate-pulse rounded-lg bg-muted" />
            ))}
          </div>
        ) : documents.isError ? (
          <LoadError onRetry={() => void documents.refetch()} />
        ) : documents.data.length === 0 ? (
          <EmptyState
            icon={FileText}
            title={t('knowledge.documents.emptyTitle')}
            text={t('knowledge.documents.emptyText')}
          />
        ) : (
          <ul className="grid gap-2" data-testid="documents-list">
            {documents.data.map((d) => (
              <DocumentItem
                key={d.id}
                document={d}
                onRefetch={(url) => void refetch(url)}
                onShowChunks={() => setShowing(d)}
                onDelete={() => setDeleting(d)}
              />
            ))}
          </ul>
        )}
      </section>
      <DocumentChunksDialog
        collectionId={collection.id}
        document={showing}
        onClose={() => setShowing(null)}
      />
      <ConfirmDelete
        open={deleting !== null}
        title={t('knowledge.documents.deleteTitle')}
        content={t('knowledge.documents.deleteContent', { name: deleting?.filename })}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </div>
  );
}
