import type { RetrievedChunk } from '@atelier/schemas';
import { useTranslation } from 'react-i18next';
import { formatScore } from './format';

/**
 * One chunk of a test retrieval: its score, its file, where it sits (chunk index; the PDF page, the
 * spreadsheet sheet, the presentation slide, the book chapter or the email attachment when the chunk's
 * metadata says) and its text.
 */
export function RetrievedChunkItem({ chunk }: { chunk: RetrievedChunk }) {
  const { t } = useTranslation();
  const { page, sheet, slide, chapter, attachment } = chunk.metadata;
  return (
    <li className="grid gap-2 rounded-lg border bg-card p-3" data-testid="retrieved-chunk">
      <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span className="rounded bg-primary/10 px-1.5 py-0.5 font-mono font-medium text-primary">
          {formatScore(chunk.score)}
        </span>
        <span className="min-w-0 truncate font-medium text-foreground">
          {chunk.source.filename ?? chunk.id}
        </span>
        {chunk.source.chunk_index !== null ? (
          <span>{t('knowledge.retrieval.chunk', { index: chunk.source.chunk_index })}</span>
        ) : null}
        {typeof page === 'number' ? <span>{t('knowledge.retrieval.page', { page })}</span> : null}
        {typeof slide === 'number' ? <span>{t('knowledge.retrieval.slide', { slide })}</span> : null}
        {typeof sheet === 'string' ? (
          <span className="min-w-0 truncate">{t('knowledge.retrieval.sheet', { sheet })}</span>
        ) : null}
        {typeof chapter === 'string' ? (
          <span className="min-w-0 truncate">{t('knowledge.retrieval.chapter', { chapter })}</span>
        ) : null}
        {typeof attachment === 'string' ? (
          <span className="min-w-0 truncate">{t('knowledge.retrieval.attachment', { attachment })}</span>
        ) : null}
      </div>
      <p className="line-clamp-6 whitespace-pre-wrap text-sm">{chunk.content}</p>
    </li>
  );
}
