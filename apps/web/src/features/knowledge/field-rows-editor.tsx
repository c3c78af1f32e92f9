import type { MetadataField } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { fieldProblems, type FieldRow } from './metadata-fields';
import { documentsKey, metadataFieldsKey } from './queries';

export const EMPTY_ROW: FieldRow = { name: '', value: '' };

/**
 * Saving fields, as both dialogs do: one request at a time, its success or error said, the documents
 * and the collection's fields read again; answers whether it was saved.
 */
export function useFieldsSave(collectionId: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  async function save(send: () => Promise<unknown>, saved: string): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
    try {
      await send();
      toast.success(saved);
      await queryClient.invalidateQueries({ queryKey: documentsKey(collectionId) });
      await queryClient.invalidateQueries({ queryKey: metadataFieldsKey(collectionId) });
      return true;
    } catch (error) {
      toast.error(t('knowledge.fields.failed'), errorText(error, t('errors.unknown')));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, save };
}

/**
 * Rows of metadata fields (a name and a value each), with the names and values the collection's
 * documents already use offered, each row's problem shown once `tried`, and rows added up to the limit.
 */
export function FieldRowsEditor({
  rows,
  onChange,
  known,
  tried,
}: {
  rows: FieldRow[];
  onChange(rows: FieldRow[]): void;
  known: MetadataField[] | undefined;
  tried: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const problems = fieldProblems(rows);
  const full = rows.length >= KNOWLEDGE_LIMITS.maxDocumentMetadataFields;
  const set = (index: number, row: Partial<FieldRow>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...row } : r)));
  const valuesOf = (name: string) => known?.find((f) => f.key === name.trim())?.values ?? [];
  return (
    <>
      <datalist id={`${id}-names`}>
        {(known ?? []).map((f) => (
          <option key={f.key} value={f.key} />
        ))}
      </datalist>
      <ul className="grid gap-3">
        {rows.map((row, i) => {
          const problem = tried ? problems[i] : null;
          const listId = `${id}-values-${i}`;
          return (
            <li key={i} className="grid grid-cols-[1fr_1fr_auto] items-start gap-2">
              <div className="grid gap-1">
                <Input
                  value={row.name}
                  onChange={(e) => set(i, { name: e.target.value })}
                  placeholder={t('knowledge.fields.namePlaceholder')}
                  aria-label={t('knowledge.fields.name', { index: i + 1 })}
                  aria-invalid={problem?.name ? true : undefined}
                  maxLength={KNOWLEDGE_LIMITS.maxMetadataKeyChars}
                  list={`${id}-names`}
                  autoFocus={i === 0}
                />
                {problem?.name ? (
                  <p role="alert" className="text-xs text-destructive">
                    {t(`knowledge.fields.errors.${problem.name}`)}
                  </p>
                ) : null}
              </div>
              <div className="grid gap-1">
                <Input
                  value={row.value}
                  onChange={(e) => set(i, { value: e.target.value })}
                  placeholder={t('knowledge.fields.valuePlaceholder')}
                  aria-label={t('knowledge.fields.value', { index: i + 1 })}
                  aria-invalid={problem?.value ? true : undefined}
                  maxLength={KNOWLEDGE_LIMITS.maxMetadataValueChars}
                  list={listId}
                />
                <datalist id={listId}>
                  {valuesOf(row.name).map((v) => (
                    <option key={String(v.value)} value={String(v.value)} />
                  ))}
                </datalist>
                {problem?.value ? (
                  <p role="alert" className="text-xs text-destructive">
                    {t(`knowledge.fields.errors.${problem.value}`, {
                      max: KNOWLEDGE_LIMITS.maxMetadataValueChars,
                    })}
                  </p>
                ) : null}
              </div>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={t('knowledge.fields.remove', { index: i + 1 })}
                onClick={() => onChange(rows.length > 1 ? rows.filter((_, j) => j !== i) : [EMPTY_ROW])}
              >
                <X />
              </Button>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={full}
          onClick={() => onChange([...rows, EMPTY_ROW])}
        >
          <Plus /> {t('knowledge.fields.add')}
        </Button>
        <p className="text-xs text-muted-foreground">
          {full
            ? t('knowledge.fields.full', { max: KNOWLEDGE_LIMITS.maxDocumentMetadataFields })
            : t('knowledge.fields.hint')}
        </p>
      </div>
    </>
  );
}
