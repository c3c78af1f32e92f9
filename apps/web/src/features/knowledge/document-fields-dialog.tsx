import type { RagDocument } from '@atelier/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { EMPTY_ROW, FieldRowsEditor, useFieldsSave } from './field-rows-editor';
import { fieldProblems, fieldRows, metadataOf, type FieldRow } from './metadata-fields';
import { updateDocumentMetadata, useMetadataFields } from './queries';

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
  const known = useMetadataFields(collectionId);
  const [rows, setRows] = useState<FieldRow[]>([EMPTY_ROW]);
  const [tried, setTried] = useState(false);
  const { busy, save } = useFieldsSave(collectionId);

  useEffect(() => {
    if (!document) return;
    const current = fieldRows(document.metadata);
    setRows(current.length ? current : [EMPTY_ROW]);
    setTried(false);
  }, [document]);

  const problems = fieldProblems(rows);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!document) return;
    setTried(true);
    if (problems.some(Boolean)) return;
    const saved = await save(
      () => updateDocumentMetadata(collectionId, document.id, metadataOf(rows)),
      t('knowledge.fields.saved'),
    );
    if (saved) onClose();
  }

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
          <FieldRowsEditor rows={rows} onChange={setRows} known={known.data} tried={tried} />
          <FormDialogFooter action="save" disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
