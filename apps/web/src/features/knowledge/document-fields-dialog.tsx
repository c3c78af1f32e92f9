import type { RagDocument } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { EMPTY_ROW, FieldRowsEditor } from './field-rows-editor';
import { fieldProblems, fieldRows, metadataOf, type FieldRow } from './metadata-fields';
import { documentsKey, metadataFieldsKey, updateDocumentMetadata, useMetadataFields } from './queries';

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
