import type { AnswerSource } from '@atelier/schemas';
import { FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * Where an answer's context came from: one entry per passage (file, part, score), the passage's
 * opening shown on hover and to screen readers.
 */
export function AnswerSources({ sources }: { sources: AnswerSource[] }) {
  const { t, i18n } = useTranslation();
  if (sources.length === 0) return null;
  const score = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
  return (
    <details data-testid="answer-sources" className="group border-t pt-2 text-xs text-muted-foreground" open>
      <summary className="cursor-pointer select-none font-medium">
        {t('chatPage.messages.sources')} ({sources.length})
      </summary>
      <ol className="mt-1.5 grid gap-1">
        {sources.map((s, i) => (
          <li key={`${s.collection_id}:${s.document_id ?? ''}:${s.chunk_index ?? i}`} title={s.excerpt}>
            <span className="inline-flex max-w-full items-center gap-1.5">
              <FileText aria-hidden className="size-3.5 shrink-0" />
              <span className="truncate font-medium text-foreground" data-testid="answer-source-name">
                {s.filename ?? t('chatPage.messages.sourceUntitled')}
              </span>
              {s.chunk_index !== null && (
                <span className="shrink-0">
                  · {t('chatPage.messages.sourceChunk', { index: s.chunk_index + 1 })}
                </span>
              )}
              <span className="shrink-0">
                · {t('chatPage.messages.sourceScore', { score: score.format(s.score) })}
              </span>
            </span>
            <span className="sr-only">{s.excerpt}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
