import type { RagDocument } from '@atelier/schemas';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError } from '@/components/load-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ChunkPlace } from './chunk-place';
import { Pager } from './pager';
import { CHUNKS_PAGE, useDocumentChunks } from './queries';

/**
 * A document's chunks as its collection's store holds them, twenty at a time: what parsing, splitting
 * and OCR made of the document, to check before asking it questions.
 */
export function DocumentChunksDialog({
  collectionId,
  document,
  onClose,
}: {
  collectionId: string;
  document: RagDocument | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [document?.id]);
  const chunks = useDocumentChunks(collectionId, document?.id ?? null, offset);
  const page = chunks.data;
  const total = page?.total ?? document?.chunk_count ?? 0;
  return (
    <Dialog open={document !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90dvh] max-w-3xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="break-all pr-6">
            {t('knowledge.chunks.title', { name: document?.filename ?? '' })}
          </DialogTitle>
          <DialogDescription>{t('knowledge.chunks.description')}</DialogDescription>
        </DialogHeader>
        {chunks.isError ? (
          <LoadError onRetry={() => void chunks.refetch()} />
        ) : !page ? (
          <div
            role="status"
            aria-label={t('common.loading')}
            className="h-48 animate-pulse rounded-lg bg-muted"
          />
        ) : page.chunks.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            {t('knowledge.chunks.none')}
          </p>
        ) : (
          <ol className="grid gap-2" data-testid="document-chunks">
            {page.chunks.map((chunk) => {
              const index = chunk.metadata.chunk_index;
              return (
                <li
                  key={chunk.id}
                  className="grid gap-1.5 rounded-lg border bg-card p-3"
                  data-testid="document-chunk"
                >
                  <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <ChunkPlace index={typeof index === 'number' ? index : null} metadata={chunk.metadata} />
                    <span>{t('knowledge.chunks.characters', { count: chunk.content.length })}</span>
                  </div>
                  <p className="whitespace-pre-wrap break-words text-sm">{chunk.content}</p>
                </li>
              );
            })}
          </ol>
        )}
        {page && page.chunks.length > 0 ? (
          <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
            <span>
              {t('knowledge.chunks.range', {
                from: page.offset + 1,
                to: page.offset + page.chunks.length,
                total,
              })}
            </span>
            {total > CHUNKS_PAGE ? (
              <Pager
                previous={{
                  label: t('knowledge.chunks.previous'),
                  disabled: offset === 0 || chunks.isFetching,
                  onClick: () => setOffset(Math.max(0, offset - CHUNKS_PAGE)),
                }}
                next={{
                  label: t('knowledge.chunks.next'),
                  disabled: offset + CHUNKS_PAGE >= total || chunks.isFetching,
                  onClick: () => setOffset(offset + CHUNKS_PAGE),
                }}
              />
            ) : null}
          </div>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
