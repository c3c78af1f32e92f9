import { Coins } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreditPlan } from '@atelier/schemas';
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { creditLevel } from '@/features/credits/credit-level';
import { CreditsDetails } from '@/features/credits/credits-details';
import { api } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useAppStore } from '@/stores/app-store';

export const CREDITS_REFRESH_MS = 5 * 60 * 1000;

async function loadCredits() {
  const { setCredits, credits } = useAppStore.getState();
  if (credits.status !== 'loaded') setCredits({ status: 'loading' });
  try {
    setCredits({ status: 'loaded', data: await api.get<CreditPlan>('/credits/plan') });
  } catch {
    setCredits({ status: 'error', error: 'Failed to fetch credit data' });
  }
}

const dot = { green: 'bg-success', amber: 'bg-warning', red: 'bg-destructive' } as const;

export function CreditsIndicator() {
  const { t, i18n } = useTranslation();
  const credits = useAppStore((s) => s.credits);
  useEffect(() => {
    void loadCredits();
    const timer = setInterval(() => void loadCredits(), CREDITS_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  if (credits.status === 'error') {
    return (
      <span className="text-xs text-destructive" role="status">
        {t('header.credits.error')}
      </span>
    );
  }
  if (credits.status !== 'loaded') {
    return <span className="h-6 w-20 animate-pulse rounded-full bg-muted" aria-label={t('common.loading')} />;
  }
  const level = creditLevel(credits.data);
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }).format(level.total);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex items-center gap-2 rounded-full border px-3 py-1 text-xs font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-testid="credits-indicator"
          data-colour={level.colour}
          aria-label={t('creditsDetails.open', { total: number })}
          title={
            level.asterisk
              ? t('header.credits.extra', { extra: credits.data.extra_credits })
              : t('header.credits.label')
          }
        >
          <span className={cn('size-2 rounded-full', dot[level.colour])} aria-hidden />
          <Coins className="size-3.5 text-muted-foreground" aria-hidden />
          <span>
            {t('header.credits.remaining', { total: number })}
            {level.asterisk ? '*' : ''}
          </span>
          {level.low ? <span className="text-destructive">{t('header.credits.low')}</span> : null}
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <CreditsDetails plan={credits.data} />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
