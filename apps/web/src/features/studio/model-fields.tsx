import type { ModelWithProvider } from '@atelier/schemas';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import type { KnowledgeCollection } from './queries';

const NONE = 'none';
const labelOf = (m: ModelWithProvider) => `${m.name || m.model_name} · ${m.provider.name}`;

/** The model a chatbot answers with, or (optional) the one it falls back to when that fails. */
export function ModelSelect({
  label,
  hint,
  models,
  value,
  onChange,
  optional = false,
  error,
}: {
  label: string;
  hint: string;
  models: ModelWithProvider[];
  value: string | null;
  onChange(id: string | null): void;
  optional?: boolean;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const note = error ? `${id}-error` : `${id}-hint`;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value ?? (optional ? NONE : '')}
        onValueChange={(v) => onChange(v === NONE ? null : v)}
        disabled={models.length === 0}
      >
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={note}
          className="aria-invalid:border-destructive"
        >
          <SelectValue placeholder={t('studio.simple.chooseModel')} />
        </SelectTrigger>
        <SelectContent>
          {optional ? <SelectItem value={NONE}>{t('studio.simple.none')}</SelectItem> : null}
          {models.map((m) => (
            <SelectItem key={m.id} value={m.id}>
              {labelOf(m)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {error ? (
        <p id={note} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : (
        <p id={note} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/** Knowledge collections to search before answering: any number of the workspace's collections. */
export function CollectionsField({
  collections,
  value,
  onChange,
}: {
  collections: KnowledgeCollection[];
  value: string[];
  onChange(ids: string[]): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const chosen = new Set(value);
  const toggle = (cid: string, on: boolean) =>
    onChange(on ? [...value, cid] : value.filter((v) => v !== cid));
  const unknown = value.filter((v) => !collections.some((c) => c.id === v)).length;
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium">{t('studio.simple.collections')}</legend>
      {collections.length === 0 ? (
        <p className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground">
          {t('studio.simple.noCollections')}{' '}
          <Link to="/knowledges/collections/create" className="font-medium text-primary hover:underline">
            {t('studio.simple.createCollection')}
          </Link>
        </p>
      ) : (
        <ul className="grid max-h-48 gap-1 overflow-y-auto rounded-md border p-2">
          {collections.map((c) => (
            <li key={c.id} className="flex items-center gap-2 px-1 py-1">
              <Checkbox
                id={`${id}-${c.id}`}
                checked={chosen.has(c.id)}
                onCheckedChange={(on) => toggle(c.id, on === true)}
              />
              <Label htmlFor={`${id}-${c.id}`} className="cursor-pointer font-normal">
                {c.name}
              </Label>
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-muted-foreground">
        {unknown > 0
          ? t('studio.simple.collectionsKept', { n: unknown })
          : t('studio.simple.collectionsHint')}
      </p>
    </fieldset>
  );
}
