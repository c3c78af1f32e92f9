import type { RagDocument } from '@atelier/schemas';
import { FileText, Globe, ImageIcon, type LucideIcon, RefreshCw, Rows3, Tags, Trash2 } from 'lucide-react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { cn } from '@/lib/utils';
import { formatBytes, webPageLabel } from './format';
import { fieldText } from './metadata-fields';
import { ProgressBar } from './progress-bar';

const STATUS_STYLE: Record<RagDocument['status'], string> = {
  queued: 'bg-muted text-muted-foreground',
  processing: 'bg-primary/15 text-primary',
  ready: 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-400',
  failed: 'bg-destructive/15 text-destructive',
};

/**
 * One document of a collection: its name (a web page: its path, linked, its site beside), size and
 * chunks, its own metadata fields, status with progress or error, and its actions (show its chunks,
 * edit its fields, fetch a web page again, delete).
 */
export function DocumentItem({
  document: d,
  selected,
  onSelect,
  onRefetch,
  onShowChunks,
  onEditFields,
  onDelete,
}: {
  document: RagDocument;
  /** Chosen for an action on several documents (giving them fields). */
  selected: boolean;
  onSelect(selected: boolean): void;
  onRefetch(url: string): void;
  onShowChunks(): void;
  onEditFields(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation();
  const url = d.source_url;
  const web = url ? webPageLabel(url) : null;
  const actions: { label: string; icon: LucideIcon; onClick(): void }[] = [
    ...(d.status === 'ready' && d.chunk_count > 0
      ? [
          {
            label: t('knowledge.documents.showChunks', { name: d.filename }),
            icon: Rows3,
            onClick: onShowChunks,
          },
        ]
      : []),
    { label: t('knowledge.fields.edit', { name: d.filename }), icon: Tags, onClick: onEditFields },
    ...(url && (d.status === 'ready' || d.status === 'failed')
      ? [
          {
            label: t('knowledge.web.refetch', { name: web?.name ?? d.filename }),
            icon: RefreshCw,
            onClick: () => onRefetch(url),
          },
        ]
      : []),
    { label: t('knowledge.delete', { name: d.filename }), icon: Trash2, onClick: onDelete },
  ];
  return (
    <li
      className="grid gap-2 rounded-lg border bg-card p-3"
      data-testid="document-row"
      data-status={d.status}
    >
      <div className="flex items-center gap-3">
        <Checkbox
          checked={selected}
          onCheckedChange={(checked) => onSelect(checked === true)}
          aria-label={t('knowledge.documents.select', { name: d.filename })}
        />
        {web ? (
          <Globe className="hidden size-4 shrink-0 text-muted-foreground sm:block" />
        ) : d.type === 'image' ? (
          <ImageIcon className="hidden size-4 shrink-0 text-muted-foreground sm:block" />
        ) : (
          <FileText className="hidden size-4 shrink-0 text-muted-foreground sm:block" />
        )}
        <div className="grid min-w-0 flex-1 gap-0.5">
          <p
            className={cn('text-sm font-medium', web ? 'truncate' : '[overflow-wrap:anywhere]')}
            title={d.filename}
          >
            {web && url && /^https?:\/\//i.test(url) ? (
              // Opens in a new tab; its whole address is the line's title.
              <a href={url} target="_blank" rel="noopener noreferrer" className="hover:underline">
                {web.name}
              </a>
            ) : (
              // A folder's file: its folders muted before its name, the whole wrapping on a phone.
              <>
                <span className="font-normal text-muted-foreground">
                  {folderOf(d.filename)
                    .split(/(?<=\/)/)
                    .map((folder, i) => (
                      // A line may break after each folder, not within a name.
                      <Fragment key={i}>
                        {folder}
                        <wbr />
                      </Fragment>
                    ))}
                </span>
                {d.filename.slice(folderOf(d.filename).length)}
              </>
            )}
          </p>
          <p className="text-xs text-muted-foreground [overflow-wrap:anywhere]">
            {[
              web?.site,
              // A page's size is known once it was fetched.
              web && d.size_bytes === 0 ? null : formatBytes(d.size_bytes),
              d.status === 'ready' ? t('knowledge.documents.chunks', { count: d.chunk_count }) : null,
              d.status === 'ready' && d.ocr_pages > 0
                ? d.type === 'image'
                  ? t('knowledge.documents.imageRead')
                  : t('knowledge.documents.ocrPages', { count: d.ocr_pages })
                : null,
              d.status === 'ready' && d.ocr_pictures > 0
                ? t('knowledge.documents.ocrPictures', { count: d.ocr_pictures })
                : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
        <Badge className={`text-xs font-medium normal-case tracking-normal ${STATUS_STYLE[d.status]}`}>
          {d.status === 'processing'
            ? t('knowledge.documents.processing', { percent: Math.round(d.progress * 100) })
            : t(`knowledge.documents.status.${d.status}`)}
        </Badge>
        {actions.map(({ label, icon: Icon, onClick }) => (
          <Button key={label} variant="ghost" size="icon" aria-label={label} title={label} onClick={onClick}>
            <Icon />
          </Button>
        ))}
      </div>
      {Object.keys(d.metadata).length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={t('knowledge.fields.of', { name: d.filename })}>
          {Object.entries(d.metadata).map(([name, value]) => (
            <li
              key={name}
              className="max-w-full rounded-md border bg-muted/50 px-1.5 py-0.5 text-xs [overflow-wrap:anywhere]"
            >
              <span className="text-muted-foreground">{name}:</span> {fieldText(value)}
            </li>
          ))}
        </ul>
      ) : null}
      {d.status === 'processing' ? <ProgressBar label={d.filename} value={d.progress} /> : null}
      {d.status === 'failed' && d.error ? (
        <p role="alert" className="text-xs text-destructive">
          {d.error}
        </p>
      ) : null}
    </li>
  );
}

/** The folders of an uploaded folder's file (`policies/2024/`), empty for a file uploaded alone. */
const folderOf = (filename: string) => filename.slice(0, filename.lastIndexOf('/') + 1);
