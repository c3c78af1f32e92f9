import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** The spec's load-failure sentence, with a retry: what a page section shows when its data did not load. */
export function LoadError({ onRetry }: { onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
    >
      <p className="flex-1">{t('errors.loadError')}</p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}
