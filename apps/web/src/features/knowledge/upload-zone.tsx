import type { SkippedFile } from '@atelier/schemas';
import { isFolderClutter, KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { Files, FolderUp, Globe, Upload, X } from 'lucide-react';
import { useCallback, useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { api, apiUrl, tokens } from '@/lib/api';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { formatBytes } from './format';
import { ProgressBar } from './progress-bar';
import { droppedFiles, type Dropped } from './dropped-files';
import {
  ACCEPTED_EXTENSIONS,
  asItem,
  checkFiles,
  MAX_FOLDER_FILES,
  uploadAll,
  useUploads,
  type UploadDeps,
} from './upload';

/** Files an archive left out that a toast names; the rest are counted. */
const SKIPPED_SHOWN = 5;

const deps: UploadDeps = { baseUrl: apiUrl, token: () => tokens.access(), refresh: () => api.refresh() };

/**
 * Drop files or folders, or pick them; each file shows the bytes sent until the API has queued it. A
 * folder's files are named by their path in it. `onAddFromWeb` opens the web pages dialog.
 */
export function UploadZone({
  collectionId,
  onUploaded,
  onAddFromWeb,
}: {
  collectionId: string;
  onUploaded(): void;
  onAddFromWeb(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement | null>(null);
  // A folder is picked with the non-standard (but universal) `webkitdirectory` attribute React does not type.
  const folderField = useCallback((field: HTMLInputElement | null) => {
    field?.setAttribute('webkitdirectory', '');
    folderInput.current = field;
  }, []);
  const [over, setOver] = useState(false);
  const uploads = useUploads((s) => s.uploads).filter((u) => u.collectionId === collectionId);
  const dismiss = useUploads((s) => s.dismiss);

  /** Sends what was picked or dropped; a folder's clutter is left out and its refusals counted in one message. */
  function take({ items, fromFolder, tooMany }: Dropped) {
    for (const field of [input.current, folderInput.current]) if (field) field.value = '';
    if (tooMany) {
      toast.error(t('knowledge.upload.tooMany', { max: MAX_FOLDER_FILES }));
      return;
    }
    const { accepted, rejected } = checkFiles(
      fromFolder ? items.filter((i) => !isFolderClutter(i.name)) : items,
    );
    // A folder's files of other types are counted in one message; a file picked alone is named.
    const counted = (r: (typeof rejected)[number]) => fromFolder && r.reason === 'type';
    const skipped = rejected.filter(counted).length;
    if (skipped > 0) toast.error(t('knowledge.upload.folderSkipped', { count: skipped }));
    for (const rejection of rejected) {
      if (counted(rejection)) continue;
      const name = rejection.name;
      toast.error(
        rejection.reason === 'size'
          ? t('knowledge.upload.tooLarge', { name, max: formatBytes(KNOWLEDGE_LIMITS.maxDocumentBytes) })
          : rejection.saveAs
            ? t('knowledge.upload.saveAs', { name, ext: rejection.saveAs })
            : t('knowledge.upload.badType', { name }),
      );
    }
    if (fromFolder && accepted.length === 0 && rejected.length === 0)
      toast.error(t('knowledge.upload.folderEmpty'));
    if (accepted.length > 0) void uploadAll(deps, collectionId, accepted, afterUpload);
  }

  /** Refreshes the documents; names what an archive held that Atelier does not read, and why. */
  function afterUpload(skipped: SkippedFile[]) {
    onUploaded();
    if (skipped.length === 0) return;
    const shown = skipped
      .slice(0, SKIPPED_SHOWN)
      .map(
        (f) =>
          `${f.filename}: ${t(`knowledge.upload.skipped.${f.code}`, { defaultValue: f.detail, max: formatBytes(KNOWLEDGE_LIMITS.maxDocumentBytes) })}`,
      );
    if (skipped.length > SKIPPED_SHOWN) {
      shown.push(t('knowledge.upload.archiveMore', { count: skipped.length - SKIPPED_SHOWN }));
    }
    toast.error(t('knowledge.upload.archiveSkipped', { count: skipped.length }), shown.join('\n'));
  }

  /** Picked files, or a picked folder's (named by their path in it). */
  function picked(list: FileList | null, fromFolder: boolean) {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    take({ items: files.map(asItem), fromFolder, tooMany: files.length > MAX_FOLDER_FILES });
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    void droppedFiles(event.dataTransfer).then(take, () => toast.error(t('knowledge.upload.unreadable')));
  }

  return (
    <div className="grid gap-2">
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="upload-zone"
        className={cn(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed p-6 text-center transition-colors',
          over ? 'border-primary bg-primary/5' : 'bg-card/50',
        )}
      >
        <Upload className="size-6 text-primary" />
        <p className="font-medium">{t('knowledge.upload.title')}</p>
        <p className="max-w-md text-sm text-muted-foreground">
          {t('knowledge.upload.text', { max: formatBytes(KNOWLEDGE_LIMITS.maxDocumentBytes) })}
        </p>
        <input
          ref={input}
          id={`${id}-files`}
          type="file"
          multiple
          accept={ACCEPTED_EXTENSIONS.join(',')}
          className="sr-only"
          onChange={(e) => picked(e.target.files, false)}
          aria-label={t('knowledge.upload.pick')}
        />
        <input
          ref={folderField}
          id={`${id}-folder`}
          type="file"
          multiple
          className="sr-only"
          onChange={(e) => picked(e.target.files, true)}
          aria-label={t('knowledge.upload.pickFolder')}
        />
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="outline" onClick={() => input.current?.click()}>
            <Files /> {t('knowledge.upload.pick')}
          </Button>
          <Button variant="outline" onClick={() => folderInput.current?.click()}>
            <FolderUp /> {t('knowledge.upload.pickFolder')}
          </Button>
          <Button variant="ghost" onClick={onAddFromWeb}>
            <Globe /> {t('knowledge.web.fromWeb')}
          </Button>
        </div>
      </div>
      {uploads.length > 0 ? (
        <ul className="grid gap-2" aria-label={t('knowledge.upload.sending')}>
          {uploads.map((u) => (
            <li key={u.key} className="grid gap-1.5 rounded-lg border p-3 text-sm" data-testid="upload-row">
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate font-medium" title={u.name}>
                  {u.name}
                </span>
                <span className="text-xs tabular-nums text-muted-foreground">
                  {u.status === 'uploading'
                    ? `${Math.round(u.progress * 100)}%`
                    : t(`knowledge.upload.${u.status === 'done' ? 'sent' : u.status}`)}
                </span>
                {u.status === 'uploading' || u.status === 'waiting' ? null : (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    aria-label={t('knowledge.upload.dismiss', { name: u.name })}
                    onClick={() => dismiss(u.key)}
                  >
                    <X />
                  </Button>
                )}
              </div>
              <ProgressBar label={u.name} value={u.progress} failed={u.status === 'failed'} />
              {u.error ? (
                <p role="alert" className="text-xs text-destructive">
                  {u.error}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
