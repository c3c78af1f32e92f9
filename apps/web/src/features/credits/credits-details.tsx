import type { CreditPlan, CreditUsage } from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api';
import { creditLevel } from './credit-level';

/** Whole days the credits left last at the daily average (null: nothing used lately). */
export function runwayDays(total: number, dailyAverage: number): number | null {
  if (!(dailyAverage > 0)) return null;
  return Math.max(0, Math.floor(total / dailyAverage));
}

/** The credits indicator's details (spec section 3): total, remaining, runway in days, daily average. */
export function CreditsDetails({ plan }: { plan: CreditPlan }) {
  const { t, i18n } = useTranslation();
  const usage = useQuery({
    queryKey: ['credits', 'usage'],
    queryFn: () => api.get<CreditUsage>('/credits/usage'),
    staleTime: 60_000,
  });
  const n = (value: number, digits = 0) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  const level = creditLevel(plan);
  const runway = usage.data ? runwayDays(level.total, usage.data.daily_average) : undefined;
  const rows: [string, string][] = [
    [t('creditsDetails.plan'), t(`creditsDetails.plans.${plan.plan_type}`, { defaultValue: plan.plan_type })],
    [t('creditsDetails.total'), n(level.total)],
    [
      t('creditsDetails.remainingMonthly'),
      `${n(plan.remaining_monthly_credits)} / ${n(plan.monthly_credits)}`,
    ],
    [t('creditsDetails.extra'), n(plan.extra_credits)],
    [
      t('creditsDetails.dailyAverage'),
      usage.isError
        ? t('creditsDetails.unavailable')
        : usage.data
          ? t('creditsDetails.perDay', {
              value: n(usage.data.daily_average, 1),
              days: usage.data.window_days,
            })
          : '…',
    ],
    [
      t('creditsDetails.runway'),
      usage.isError
        ? t('creditsDetails.unavailable')
        : runway === undefined
          ? '…'
          : runway === null
            ? t('creditsDetails.noUsage')
            : t('creditsDetails.days', { count: runway }),
    ],
  ];
  return (
    <div className="grid w-72 max-w-[calc(100vw-2rem)] gap-3 p-3 text-sm" data-testid="credits-details">
      <div>
        <p className="font-semibold">{t('creditsDetails.title')}</p>
        <div className="mt-2 h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div
            className={
              level.colour === 'green'
                ? 'h-full bg-success'
                : level.colour === 'amber'
                  ? 'h-full bg-warning'
                  : 'h-full bg-destructive'
            }
            style={{ width: `${Math.min(100, Math.max(0, level.percent))}%` }}
          />
        </div>
      </div>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1.5">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="text-right font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {level.low ? <p className="text-xs text-destructive">{t('creditsDetails.lowHint')}</p> : null}
    </div>
  );
}
