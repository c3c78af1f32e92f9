import type { Workspace } from '@atelier/schemas';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { useAppStore } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { deleteWorkspace, loadWorkspaces } from './queries';

/** After deleting: the list is refreshed, the first remaining workspace (or none) selected, then home. */
export function DeleteWorkspaceDialog({
  open,
  workspace,
  onClose,
}: {
  open: boolean;
  workspace: Workspace;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await deleteWorkspace(workspace.id);
      useAppStore.getState().selectWorkspace(null);
      await loadWorkspaces();
      toast.success(t('workspaceSelection.deleteSuccess'));
      void navigate({ to: '/' });
    } catch {
      toast.error(t('workspaceSelection.deleteError'));
    } finally {
      setBusy(false);
      onClose();
    }
  }

  return (
    <AlertDialog open={open} onOpenChange={(o) => !o && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>{t('workspaceSelection.deleteConfirm.title')}</AlertDialogTitle>
        <AlertDialogDescription>
          {t('workspaceSelection.deleteConfirm.content', { name: workspace.name })}
        </AlertDialogDescription>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
          <AlertDialogAction
            disabled={busy}
            onClick={(e) => {
              e.preventDefault();
              void confirm();
            }}
          >
            {t('common.delete')}
          </AlertDialogAction>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
