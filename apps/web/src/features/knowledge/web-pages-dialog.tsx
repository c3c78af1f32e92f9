import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { addWebPages } from './queries';

const DEFAULT_PAGES = 50;

/** The form's address as an http(s) URL, or why it is not one. */
export function checkPageUrl(text: string): 'empty' | 'invalid' | null {
  const value = text.trim();
  if (value === '') return 'empty';
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** "/docs/, /help/*" as the API's filter parts. */
export const filterParts = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * Adds web pages to a collection: one page by its address, or the pages its sitemap lists (at most a
 * number, optionally only those whose address contains a part). The worker fetches each page.
 */
export function WebPagesDialog({
  collectionId,
  open,
  onClose,
  onAdded,
}: {
  collectionId: string;
  open: boolean;
  onClose(): void;
  onAdded(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [url, setUrl] = useState('');
  const [sitemap, setSitemap] = useState(false);
  const [pages, setPages] = useState(String(DEFAULT_PAGES));
  const [filter, setFilter] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setUrl('');
    setSitemap(false);
    setPages(String(DEFAULT_PAGES));
    setFilter('');
    setTried(false);
  }, [open]);

  const urlProblem = checkPageUrl(url);
  const count = Number(pages);
  const pagesWrong =
    sitemap && !(Number.isInteger(count) && count >= 1 && count <= KNOWLEDGE_LIMITS.maxWebPages);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    if (urlProblem || pagesWrong) return;
    setBusy(true);
    try {
      const parts = filterParts(filter);
      const { documents } = await addWebPages(collectionId, {
        url: url.trim(),
        ...(sitemap ? { sitemap: true, max_pages: count, ...(parts.length ? { filter: parts } : {}) } : {}),
      });
      toast.success(t('knowledge.web.added', { count: documents.length }));
      onAdded();
      onClose();
    } catch (error) {
      toast.error(t('knowledge.web.failed'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90dvh] max-w-lg overflow-y-auto">
        <form onSubmit={submit} className="grid gap-4" noValidate data-testid="web-pages-form">
          <DialogHeader>
            <DialogTitle>{t('knowledge.web.title')}</DialogTitle>
            <DialogDescription>{t('knowledge.web.description')}</DialogDescription>
          </DialogHeader>
          <Field
            label={t('knowledge.web.url')}
            type="url"
            inputMode="url"
            placeholder="https://docs.example.com/getting-started"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={tried && urlProblem ? t(`knowledge.web.url_${urlProblem}`) : undefined}
            autoFocus
          />
          <div className="flex items-start gap-2">
            <Checkbox
              id={`${id}-sitemap`}
              checked={sitemap}
              onCheckedChange={(checked) => setSitemap(checked === true)}
              className="mt-0.5"
            />
            <div className="grid gap-0.5">
              <Label htmlFor={`${id}-sitemap`}>{t('knowledge.web.sitemap')}</Label>
              <p className="text-xs text-muted-foreground">{t('knowledge.web.sitemapHint')}</p>
            </div>
          </div>
          {sitemap ? (
            <div className="grid items-start gap-4 sm:grid-cols-[10rem_1fr]">
              <Field
                label={t('knowledge.web.maxPages')}
                type="number"
                min={1}
                max={KNOWLEDGE_LIMITS.maxWebPages}
                value={pages}
                onChange={(e) => setPages(e.target.value)}
                error={
                  tried && pagesWrong
                    ? t('knowledge.web.maxPagesInvalid', { max: KNOWLEDGE_LIMITS.maxWebPages })
                    : undefined
                }
              />
              <Field
                label={t('knowledge.web.filter')}
                placeholder="/docs/, /help/*"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                hint={t('knowledge.web.filterHint')}
              />
            </div>
          ) : null}
          <FormDialogFooter action="add" disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
