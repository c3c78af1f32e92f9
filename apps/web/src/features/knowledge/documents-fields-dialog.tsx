import type { RagDocument } from '@atelier/schemas';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Label } from '@/components/ui/label';
import { EMPTY_ROW, FieldRowsEditor, useFieldsSave } from './field-rows-editor';
import { fieldProblems, metadataOf, type FieldRow } from './metadata-fields';
import { updateDocumentsMetadata, useMetadataFields } from './queries';

/**
 * Gives several documents fields at once: the rows are set on each (a field of the same name
 * replaced), the fields ticked are removed, and each document keeps its other fields.
 */
export function DocumentsFieldsDialog({
  collectionId,
  documents,
  onClose,
  onSaved,
}: {
  collectionId: string;
  documents: RagDocument[] | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const known = useMetadataFields(collectionId);
  const [rows, setRows] = useState<FieldRow[]>([EMPTY_ROW]);
  const [removed, setRemoved] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const { busy, save } = useFieldsSave(collectionId);
  const open = documents !== null;

  useEffect(() => {
    if (!open) return;
    setRows([EMPTY_ROW]);
    setRemoved([]);
    setTried(false);
  }, [open]);

  // The fields the chosen documents have: any of them can be removed from all.
  const present = [...new Set((documents ?? []).flatMap((d) => Object.keys(d.metadata)))].sort((a, b) =>
    a.localeCompare(b),
  );
  const set = metadataOf(rows);
  const nothing = Object.keys(set).length === 0 && removed.length === 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!documents) return;
    setTried(true);
    if (fieldProblems(rows).some(Boolean) || nothing) return;
    const saved = await save(
      () =>
        updateDocumentsMetadata(collectionId, {
          document_ids: documents.map((d) => d.id),
          ...(Object.keys(set).length ? { set } : {}),
          ...(removed.length ? { unset: removed } : {}),
        }),
      t('knowledge.fields.savedMany', { count: documents.length }),
    );
    if (!saved) return;
    onSaved();
    onClose();
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90dvh] max-w-xl overflow-y-auto">
        <form onSubmit={submit} className="grid gap-4" noValidate data-testid="documents-fields-form">
          <DialogHeader>
            <DialogTitle>{t('knowledge.fields.titleMany', { count: documents?.length ?? 0 })}</DialogTitle>
            <DialogDescription>{t('knowledge.fields.descriptionMany')}</DialogDescription>
          </DialogHeader>
          <FieldRowsEditor rows={rows} onChange={setRows} known={known.data} tried={tried} />
          {present.length ? (
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">{t('knowledge.fields.removeMany')}</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {present.map((name, i) => (
                  <div key={name} className="flex items-center gap-2">
                    <Checkbox
                      id={`${id}-remove-${i}`}
                      checked={removed.includes(name)}
                      onCheckedChange={(checked) =>
                        setRemoved(checked === true ? [...removed, name] : removed.filter((n) => n !== name))
                      }
                    />
                    <Label htmlFor={`${id}-remove-${i}`} className="[overflow-wrap:anywhere]">
                      {name}
                    </Label>
                  </div>
                ))}
              </div>
            </fieldset>
          ) : null}
          {tried && nothing ? (
            <p role="alert" className="text-sm text-destructive">
              {t('knowledge.fields.nothing')}
            </p>
          ) : null}
          <FormDialogFooter action="save" disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
