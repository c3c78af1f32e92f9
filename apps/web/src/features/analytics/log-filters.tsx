import type { LogFacetsAnswer } from '@atelier/schemas';
import { logStatuses, type LogStatus } from '@atelier/schemas/constants';
import { Search, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { LogFilters } from './queries';

const ALL = '__all';
const SEARCH_DELAY_MS = 300;

function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
  onChange(value: string | undefined): void;
}) {
  const { t } = useTranslation();
  return (
    <Select value={value ?? ALL} onValueChange={(v) => onChange(v === ALL ? undefined : v)}>
      <SelectTrigger aria-label={label} className="w-full sm:w-44">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{t('analytics.filters.all', { what: label })}</SelectItem>
        {options.map((o) => (
          <SelectItem key={o.value} value={o.value}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Search words, chatbot, model, status and (for builders) user; the search waits for a pause in typing. */
export function LogFiltersBar({
  filters,
  facets,
  showUsers,
  onChange,
}: {
  filters: LogFilters;
  facets: LogFacetsAnswer | undefined;
  showUsers: boolean;
  onChange(filters: LogFilters): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(filters.q ?? '');
  useEffect(() => {
    const q = text.trim() || undefined;
    if (q === filters.q) return;
    const timer = setTimeout(() => onChange({ ...filters, q }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  const set = (key: keyof LogFilters) => (value: string | undefined) =>
    onChange({ ...filters, [key]: value });
  const active = Object.values(filters).some((v) => v !== undefined);
  return (
    <div
      className="grid w-full grid-cols-2 items-center gap-2 sm:flex sm:w-auto sm:flex-wrap"
      data-testid="log-filters"
    >
      <div className="relative col-span-2 w-full sm:w-64">
        <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('analytics.filters.search')}
          aria-label={t('analytics.filters.search')}
          className="pl-8"
          maxLength={200}
        />
      </div>
      <FilterSelect
        label={t('analytics.logs.chatbot')}
        value={filters.chatbot_id}
        options={(facets?.chatbots ?? []).map((c) => ({ value: c.id, label: c.name }))}
        onChange={set('chatbot_id')}
      />
      <FilterSelect
        label={t('analytics.logs.model')}
        value={filters.model}
        options={(facets?.models ?? []).map((m) => ({ value: m, label: m }))}
        onChange={set('model')}
      />
      <FilterSelect
        label={t('analytics.logs.status')}
        value={filters.status}
        options={logStatuses.map((s) => ({ value: s, label: t(`analytics.status.${s}`) }))}
        onChange={(v) => onChange({ ...filters, status: v as LogStatus | undefined })}
      />
      {showUsers ? (
        <FilterSelect
          label={t('analytics.logs.user')}
          value={filters.user_id}
          options={(facets?.users ?? []).map((u) => ({ value: u.id, label: u.email }))}
          onChange={set('user_id')}
        />
      ) : null}
      {active ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={() => {
            setText('');
            onChange({});
          }}
        >
          <X /> {t('analytics.filters.clear')}
        </Button>
      ) : null}
    </div>
  );
}
