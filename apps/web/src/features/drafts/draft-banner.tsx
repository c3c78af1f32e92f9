import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { formatWhen } from '@/lib/format';
import { cn } from '@/lib/utils';

/** "Unsaved changes from … were kept in this browser": Restore or Discard. */
export function DraftBanner({
  savedAt,
  onRestore,
  onDiscard,
  className,
}: {
  savedAt: string;
  onRestore(): void;
  onDiscard(): void;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div
      className={cn(
        'flex flex-wrap items-center gap-x-3 gap-y-2 bg-amber-50 px-4 py-2 text-sm dark:bg-amber-950/30',
        className,
      )}
      role="status"
      data-testid="draft-banner"
    >
      <History className="size-4 shrink-0 text-amber-600" />
      <span className="min-w-0 flex-1">
        {t('drafts.found', { when: formatWhen(savedAt, i18n.language, t('chatExtras.justNow')) })}
      </span>
      <span className="flex gap-2">
        <Button size="sm" variant="outline" onClick={onRestore}>
          {t('drafts.restore')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDiscard}>
          {t('drafts.discard')}
        </Button>
      </span>
    </div>
  );
}
