import type { RagCollection, RagDocument } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { FileText, Globe, RefreshCw, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { formatBytes, webPageLabel } from './format';
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
import { UploadZone } from './upload-zone';
import { WebPagesDialog } from './web-pages-dialog';

const STATUS_STYLE: Record<RagDocument['status'], string> = {
  queued: 'bg-muted text-muted-foreground',
  processing: 'bg-primary/15 text-primary',
  ready: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-400',
  failed: 'bg-destructive/15 text-destructive',
};

/**
 * Upload into a collection (or add web pages) and follow each document from queued to ready (or
 * failed).
 */
export function DocumentsPanel({ collection }: { collection: RagCollection }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const documents = useDocuments(collection.id);
  const [deleting, setDeleting] = useState<RagDocument | null>(null);
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
            {documents.data.map((d) => {
              const web = d.source_url ? webPageLabel(d.source_url) : null;
              return (
                <li
                  key={d.id}
                  className="grid gap-2 rounded-lg border bg-card p-3"
                  data-testid="document-row"
                  data-status={d.status}
                >
                  <div className="flex items-center gap-3">
                    {web ? (
                      <Globe className="size-4 shrink-0 text-muted-foreground" />
                    ) : (
                      <FileText className="size-4 shrink-0 text-muted-foreground" />
                    )}
                    <div className="grid min-w-0 flex-1 gap-0.5">
                      <p className="truncate text-sm font-medium" title={d.filename}>
                        {web && d.source_url && /^https?:\/\//i.test(d.source_url) ? (
                          // Opens in a new tab; its whole address is the line's title.
                          <a
                            href={d.source_url}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="hover:underline"
                          >
                            {web.name}
                          </a>
                        ) : (
                          d.filename
                        )}
                      </p>
                      <p className="truncate text-xs text-muted-foreground">
                        {[
                          web?.site,
                          // A page's size is known once it was fetched.
                          web && d.size_bytes === 0 ? null : formatBytes(d.size_bytes),
                          d.status === 'ready'
                            ? t('knowledge.documents.chunks', { count: d.chunk_count })
                            : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </p>
                    </div>
                    <Badge
                      className={`text-xs font-medium normal-case tracking-normal ${STATUS_STYLE[d.status]}`}
                    >
                      {d.status === 'processing'
                        ? t('knowledge.documents.processing', { percent: Math.round(d.progress * 100) })
                        : t(`knowledge.documents.status.${d.status}`)}
                    </Badge>
                    {d.source_url && (d.status === 'ready' || d.status === 'failed') ? (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t('knowledge.web.refetch', { name: web?.name ?? d.filename })}
                        onClick={() => void refetch(d.source_url!)}
                      >
                        <RefreshCw />
                      </Button>
                    ) : null}
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t('knowledge.delete', { name: d.filename })}
                      onClick={() => setDeleting(d)}
                    >
                      <Trash2 />
                    </Button>
                  </div>
                  {d.status === 'processing' ? (
                    <div
                      role="progressbar"
                      aria-label={d.filename}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={Math.round(d.progress * 100)}
                      className="h-1.5 overflow-hidden rounded-full bg-muted"
                    >
                      <div
                        className="h-full bg-primary transition-all"
                        style={{ width: `${Math.round(d.progress * 100)}%` }}
                      />
                    </div>
                  ) : null}
                  {d.status === 'failed' && d.error ? (
                    <p role="alert" className="text-xs text-destructive">
                      {d.error}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
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
