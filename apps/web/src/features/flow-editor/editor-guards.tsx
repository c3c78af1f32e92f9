import { useBlocker } from '@tanstack/react-router';
import { History } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { formatRelative } from '@/lib/format';
import { clearDraft, differs, type Draft, readDraft, writeDraft } from './draft';
import { useEditorStore } from './editor-store';
import { fromConfiguration } from './serialize';

/** Leaving with unsaved changes asks first (in the app, and on closing or reloading the tab). */
export function LeaveGuard() {
  const { t } = useTranslation();
  const { proceed, reset, status } = useBlocker({
    shouldBlockFn: () => useEditorStore.getState().dirty,
    enableBeforeUnload: () => useEditorStore.getState().dirty,
    withResolver: true,
  });
  return (
    <AlertDialog open={status === 'blocked'} onOpenChange={(open) => !open && reset?.()}>
      <AlertDialogContent>
        <AlertDialogTitle>{t('flow.leave.title')}</AlertDialogTitle>
        <AlertDialogDescription>{t('flow.leave.text')}</AlertDialogDescription>
        <div className="flex justify-end gap-2">
          <AlertDialogCancel onClick={() => reset?.()}>{t('flow.leave.stay')}</AlertDialogCancel>
          <AlertDialogAction onClick={() => proceed?.()}>{t('flow.leave.leave')}</AlertDialogAction>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * Keeps unsaved edits in this browser as a draft (a second after the last change), and offers to
 * restore a draft left by an earlier visit.
 */
export function DraftBanner({ chatbotId }: { chatbotId: string }) {
  const { t, i18n } = useTranslation();
  const [found, setFound] = useState<Draft | null>(() => {
    const draft = readDraft(chatbotId);
    return draft && differs(draft, useEditorStore.getState()) ? draft : null;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = useEditorStore.subscribe((s, before) => {
      if (!s.dirty || (s.nodes === before.nodes && s.edges === before.edges)) return;
      clearTimeout(timer);
      timer = setTimeout(() => writeDraft(chatbotId, useEditorStore.getState()), 1000);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [chatbotId]);

  if (!found) return null;
  return (
    <div
      className="flex items-center gap-3 border-b bg-amber-50 px-4 py-2 text-sm dark:bg-amber-950/30"
      role="status"
    >
      <History className="size-4 text-amber-600" />
      <span className="flex-1">
        {t('flow.draft.found', { when: formatRelative(found.savedAt, i18n.language) })}
      </span>
      <Button
        size="sm"
        variant="outline"
        onClick={() => {
          useEditorStore.getState().setGraph(fromConfiguration(found.configuration).graph);
          setFound(null);
        }}
      >
        {t('flow.draft.restore')}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          clearDraft(chatbotId);
          setFound(null);
        }}
      >
        {t('flow.draft.discard')}
      </Button>
    </div>
  );
}
