import { useTranslation } from 'react-i18next';

/**
 * Where a chunk sits in its document, from its metadata: its index, the PDF page (and whether an OCR
 * model read it), the presentation slide, the spreadsheet sheet, the book chapter, the email attachment.
 */
export function ChunkPlace({ index, metadata }: { index: number | null; metadata: Record<string, unknown> }) {
  const { t } = useTranslation();
  const { page, sheet, slide, chapter, attachment, ocr } = metadata;
  return (
    <>
      {index !== null ? <span>{t('knowledge.retrieval.chunk', { index })}</span> : null}
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
      {ocr === true ? <span>{t('knowledge.retrieval.ocr')}</span> : null}
    </>
  );
}
