import { analyticsPeriods, type AnalyticsPeriod } from '@atelier/schemas/constants';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { customRange, presetRange, PRESETS, type RangeChoice } from './range';

/** The presets, the days by hand, and the period the figures are bucketed by. */
export function RangePicker({
  value,
  onChange,
}: {
  value: RangeChoice;
  onChange(choice: RangeChoice): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="range-picker">
      <div
        role="group"
        aria-label={t('analytics.range.presets')}
        className="grid w-full grid-cols-3 rounded-lg bg-muted p-1 sm:inline-flex sm:w-auto"
      >
        {PRESETS.map((preset) => (
          <button
            key={preset}
            type="button"
            aria-pressed={value.preset === preset}
            onClick={() => onChange(presetRange(preset, value.tz))}
            className={cn(
              'cursor-pointer rounded-md px-2 py-1 text-center text-sm leading-tight sm:whitespace-nowrap sm:px-2.5 font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
              value.preset === preset && 'bg-background text-foreground shadow-sm',
            )}
          >
            {t(`analytics.range.${preset}`)}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-1">
        <Input
          type="date"
          aria-label={t('analytics.range.from')}
          value={value.from}
          max={value.to}
          onChange={(e) => e.target.value && onChange(customRange(value, e.target.value, value.to))}
          className="w-[9.5rem]"
        />
        <span aria-hidden className="text-muted-foreground">
          –
        </span>
        <Input
          type="date"
          aria-label={t('analytics.range.to')}
          value={value.to}
          min={value.from}
          onChange={(e) => e.target.value && onChange(customRange(value, value.from, e.target.value))}
          className="w-[9.5rem]"
        />
      </div>
      <Select
        value={value.period}
        onValueChange={(period) => onChange({ ...value, period: period as AnalyticsPeriod })}
      >
        <SelectTrigger aria-label={t('analytics.range.period')} className="w-32">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {analyticsPeriods.map((p) => (
            <SelectItem key={p} value={p}>
              {t(`analytics.period.${p}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
