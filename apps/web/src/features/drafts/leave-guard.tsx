import { useBlocker } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';

/**
 * Leaving an editor with unsaved changes asks first: in the app (a link, Back to the studio) and on
 * closing or reloading the tab. `dirty` is read when the person leaves.
 */
export function LeaveGuard({ dirty }: { dirty: () => boolean }) {
  const { t } = useTranslation();
  const { proceed, reset, status } = useBlocker({
    shouldBlockFn: dirty,
    enableBeforeUnload: dirty,
    withResolver: true,
  });
  return (
    <AlertDialog open={status === 'blocked'} onOpenChange={(open) => !open && reset?.()}>
      <AlertDialogContent data-testid="leave-guard">
        <AlertDialogTitle>{t('drafts.leave.title')}</AlertDialogTitle>
        <AlertDialogDescription>{t('drafts.leave.text')}</AlertDialogDescription>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogCancel onClick={() => reset?.()}>{t('drafts.leave.stay')}</AlertDialogCancel>
          <AlertDialogAction onClick={() => proceed?.()}>{t('drafts.leave.leave')}</AlertDialogAction>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
