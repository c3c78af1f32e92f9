import type { Workspace } from '@atelier/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { createWorkspace, loadWorkspaces, renameWorkspace } from './queries';

/** Create mode when the workspace has no id, edit mode otherwise; only a non-empty name is saved. */
export function WorkspaceDialog({
  open,
  workspace,
  onClose,
}: {
  open: boolean;
  workspace: Workspace | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const editing = Boolean(workspace?.id);

  useEffect(() => {
    if (open) setName(workspace?.name ?? '');
  }, [open, workspace]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || saving) return;
    setSaving(true);
    try {
      if (workspace?.id) {
        try {
          await renameWorkspace(workspace.id, trimmed);
          await loadWorkspaces();
          toast.success(t('workspaceSelection.editSuccess'));
        } catch {
          toast.error(t('workspaceSelection.editError'));
          await loadWorkspaces().catch(() => undefined);
        }
        onClose();
      } else {
        try {
          const id = await createWorkspace(trimmed);
          await loadWorkspaces();
          useAppStore.getState().selectWorkspace(id);
          toast.success(t('workspaceSelection.createSuccess'));
          onClose();
        } catch {
          toast.error(t('workspaceSelection.createError'));
        }
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')}>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>
              {t(editing ? 'workspaceSelection.dialog.editTitle' : 'workspaceSelection.dialog.createTitle')}
            </DialogTitle>
            <DialogDescription>
              {t(
                editing
                  ? 'workspaceSelection.dialog.editDescription'
                  : 'workspaceSelection.dialog.createDescription',
              )}
            </DialogDescription>
          </DialogHeader>
          <Field
            label={t('workspaceSelection.dialog.nameLabel')}
            placeholder={t('workspaceSelection.dialog.namePlaceholder')}
            value={name}
            maxLength={100}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
          <FormDialogFooter
            action={editing ? 'update' : 'create'}
            disabled={!name.trim() || saving}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
