import type { AnswerSource } from '@atelier/schemas';
import { ChevronRight, FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { groupSources, sourcePlace } from '@/lib/source-groups';

/**
 * Where an answer's context came from: one entry per document (its best score, how many passages it
 * gave, or where the one it gave sits: page, sheet, slide or part), each opening to its passages (where,
 * score and opening lines).
 */
export function AnswerSources({ sources }: { sources: AnswerSource[] }) {
  const { t, i18n } = useTranslation();
  if (sources.length === 0) return null;
  const score = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
  const part = (s: AnswerSource) => {
    const place = sourcePlace(s);
    if (place?.kind === 'page') return t('chatPage.messages.sourcePage', { page: place.value });
    if (place?.kind === 'sheet') return t('chatPage.messages.sourceSheet', { sheet: place.value });
    if (place?.kind === 'slide') return t('chatPage.messages.sourceSlide', { slide: place.value });
    if (place?.kind === 'chapter') return t('chatPage.messages.sourceChapter', { chapter: place.value });
    if (place?.kind === 'attachment')
      return t('chatPage.messages.sourceAttachment', { attachment: place.value });
    return place ? t('chatPage.messages.sourceChunk', { index: place.value }) : null;
  };
  const groups = groupSources(sources);
  return (
    <details data-testid="answer-sources" className="group border-t pt-2 text-xs text-muted-foreground" open>
      <summary className="cursor-pointer select-none font-medium">
        {t('chatPage.messages.sources')} ({groups.length})
      </summary>
      <ol className="mt-1.5 grid gap-1">
        {groups.map((g) => {
          const only = g.passages.length === 1 ? g.passages[0]! : null;
          const detail = only
            ? part(only)
            : t('chatPage.messages.sourcePassages', { count: g.passages.length });
          return (
            <li key={g.key}>
              <details className="group/source" data-testid="answer-source">
                <summary className="flex cursor-pointer list-none items-center gap-1.5 rounded hover:text-foreground [&::-webkit-details-marker]:hidden">
                  <ChevronRight
                    aria-hidden
                    className="size-3 shrink-0 transition-transform group-open/source:rotate-90"
                  />
                  <FileText aria-hidden className="size-3.5 shrink-0" />
                  <span className="truncate font-medium text-foreground" data-testid="answer-source-name">
                    {g.filename ?? t('chatPage.messages.sourceUntitled')}
                  </span>
                  {detail ? <span className="shrink-0">· {detail}</span> : null}
                  <span className="shrink-0">
                    · {t('chatPage.messages.sourceScore', { score: score.format(g.best) })}
                  </span>
                </summary>
                <ol className="mt-1 grid gap-1.5 border-l-2 border-border pl-2.5 ml-1.5">
                  {g.passages.map((s, i) => (
                    <li key={`${s.chunk_index ?? 'x'}:${i}`} data-testid="answer-source-passage">
                      {only ? null : (
                        <p className="font-medium">
                          {[part(s), t('chatPage.messages.sourceScore', { score: score.format(s.score) })]
                            .filter(Boolean)
                            .join(' · ')}
                        </p>
                      )}
                      <p className="line-clamp-4 whitespace-pre-wrap break-words text-foreground/80">
                        {s.excerpt}
                      </p>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          );
        })}
      </ol>
    </details>
  );
}
