import type { CreatedApiKey } from '@atelier/schemas';
import { TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { CodeBlock } from './controls';

/**
 * Names a new API key, then shows it: the only time it can be seen. Closing forgets it, so the key
 * lives in this component's state and nowhere else.
 */
export function ApiKeyCreateDialog({
  open,
  onCreate,
  onClose,
}: {
  open: boolean;
  onCreate(name: string): Promise<CreatedApiKey>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  function close() {
    setName('');
    setError(undefined);
    setCreated(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setError(t('apiKeys.nameRequired'));
    setBusy(true);
    try {
      setCreated(await onCreate(name.trim()));
      setError(undefined);
    } catch (failure) {
      setError(errorText(failure, t('apiKeys.createError')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && close()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{t(created ? 'apiKeys.createdTitle' : 'apiKeys.createTitle')}</DialogTitle>
          <DialogDescription>{t(created ? 'apiKeys.createdText' : 'apiKeys.createText')}</DialogDescription>
        </DialogHeader>
        {created ? (
          <div className="grid gap-3">
            <p
              role="alert"
              className="flex items-start gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
              {t('apiKeys.shownOnce')}
            </p>
            <CodeBlock label={created.name} code={created.key} />
            <DialogFooter>
              <Button type="button" onClick={close}>
                {t('apiKeys.done')}
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(e) => void submit(e)} className="grid gap-4" noValidate>
            <Field
              label={t('apiKeys.name')}
              placeholder={t('apiKeys.namePlaceholder')}
              value={name}
              maxLength={100}
              autoFocus
              error={error}
              onChange={(e) => setName(e.target.value)}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" disabled={busy}>
                {t('apiKeys.create')}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
