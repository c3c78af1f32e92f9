import type { RagDocument } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { fieldProblems, fieldRows, metadataOf, type FieldRow } from './metadata-fields';
import { documentsKey, metadataFieldsKey, updateDocumentMetadata, useMetadataFields } from './queries';

const EMPTY_ROW: FieldRow = { name: '', value: '' };

/**
 * Edits a document's own metadata fields (name and value rows; names and values the collection's
 * documents already use are offered): saved, they are written on each of its chunks, so retrieval can
 * be filtered by them.
 */
export function DocumentFieldsDialog({
  collectionId,
  document,
  onClose,
}: {
  collectionId: string;
  document: RagDocument | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const known = useMetadataFields(collectionId);
  const [rows, setRows] = useState<FieldRow[]>([EMPTY_ROW]);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!document) return;
    const current = fieldRows(document.metadata);
    setRows(current.length ? current : [EMPTY_ROW]);
    setTried(false);
  }, [document]);

  const problems = fieldProblems(rows);
  const full = rows.length >= KNOWLEDGE_LIMITS.maxDocumentMetadataFields;
  const set = (index: number, row: Partial<FieldRow>) =>
    setRows(rows.map((r, i) => (i === index ? { ...r, ...row } : r)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!document || busy) return;
    setTried(true);
    if (problems.some(Boolean)) return;
    setBusy(true);
    try {
      await updateDocumentMetadata(collectionId, document.id, metadataOf(rows));
      toast.success(t('knowledge.fields.saved'));
      await queryClient.invalidateQueries({ queryKey: documentsKey(collectionId) });
      await queryClient.invalidateQueries({ queryKey: metadataFieldsKey(collectionId) });
      onClose();
    } catch (error) {
      toast.error(t('knowledge.fields.failed'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  const valuesOf = (name: string) => known.data?.find((f) => f.key === name.trim())?.values ?? [];
  return (
    <Dialog open={document !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90dvh] max-w-xl overflow-y-auto">
        <form onSubmit={submit} className="grid gap-4" noValidate data-testid="document-fields-form">
          <DialogHeader>
            <DialogTitle>{t('knowledge.fields.title')}</DialogTitle>
            <DialogDescription className="[overflow-wrap:anywhere]">
              {t('knowledge.fields.description', { name: document?.filename })}
            </DialogDescription>
          </DialogHeader>
          <datalist id={`${id}-names`}>
            {(known.data ?? []).map((f) => (
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
                    onClick={() => setRows(rows.length > 1 ? rows.filter((_, j) => j !== i) : [EMPTY_ROW])}
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
              onClick={() => setRows([...rows, EMPTY_ROW])}
            >
              <Plus /> {t('knowledge.fields.add')}
            </Button>
            <p className="text-xs text-muted-foreground">
              {full
                ? t('knowledge.fields.full', { max: KNOWLEDGE_LIMITS.maxDocumentMetadataFields })
                : t('knowledge.fields.hint')}
            </p>
          </div>
          <FormDialogFooter action="save" disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
