import type { LogStatus } from '@atelier/schemas/constants';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

/** Success in green, error in red, readable in both themes. */
export function StatusBadge({ status }: { status: LogStatus }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        status === 'error' ? 'bg-destructive/15 text-destructive' : 'bg-success/15 text-success',
      )}
    >
      {t(`analytics.status.${status}`)}
    </span>
  );
}
