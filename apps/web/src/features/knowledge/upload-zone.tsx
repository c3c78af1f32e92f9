import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { Globe, Upload, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { api, apiUrl, tokens } from '@/lib/api';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { formatBytes } from './format';
import { ProgressBar } from './progress-bar';
import { ACCEPTED_EXTENSIONS, checkFiles, uploadAll, useUploads, type UploadDeps } from './upload';

const deps: UploadDeps = { baseUrl: apiUrl, token: () => tokens.access(), refresh: () => api.refresh() };

/**
 * Drop files or pick them; each shows the bytes sent until the API has queued it. `onAddFromWeb` opens
 * the web pages dialog.
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
  const [over, setOver] = useState(false);
  const uploads = useUploads((s) => s.uploads).filter((u) => u.collectionId === collectionId);
  const dismiss = useUploads((s) => s.dismiss);

  function take(list: FileList | null) {
    const files = Array.from(list ?? []);
    if (files.length === 0) return;
    const { accepted, rejected } = checkFiles(files);
    for (const rejection of rejected) {
      const name = rejection.file.name;
      toast.error(
        rejection.reason === 'size'
          ? t('knowledge.upload.tooLarge', { name, max: formatBytes(KNOWLEDGE_LIMITS.maxDocumentBytes) })
          : rejection.saveAs
            ? t('knowledge.upload.saveAs', { name, ext: rejection.saveAs })
            : t('knowledge.upload.badType', { name }),
      );
    }
    if (accepted.length > 0) void uploadAll(deps, collectionId, accepted, onUploaded);
    if (input.current) input.current.value = '';
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files);
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
          onChange={(e) => take(e.target.files)}
          aria-label={t('knowledge.upload.pick')}
        />
        <div className="flex flex-wrap justify-center gap-2">
          <Button variant="outline" onClick={() => input.current?.click()}>
            {t('knowledge.upload.pick')}
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
                    : t(u.status === 'done' ? 'knowledge.upload.sent' : 'knowledge.upload.failed')}
                </span>
                {u.status === 'uploading' ? null : (
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
