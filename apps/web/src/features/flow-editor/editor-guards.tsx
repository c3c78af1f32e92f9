import { useEffect, useState } from 'react';
import { DraftBanner as Banner } from '@/features/drafts/draft-banner';
import { draftWriter } from '@/features/drafts/local-draft';
import { LeaveGuard as Guard } from '@/features/drafts/leave-guard';
import { clearDraft, differs, type Draft, readDraft, writeDraft } from './draft';
import { useEditorStore } from './editor-store';
import { fromConfiguration, type SavedConfiguration, toConfiguration } from './serialize';

const isDirty = () => useEditorStore.getState().dirty;

/** Leaving with unsaved changes asks first (in the app, and on closing or reloading the tab). */
export function LeaveGuard() {
  return <Guard dirty={isDirty} />;
}

/**
 * Keeps unsaved edits in this browser as a draft (a second after the last change, if still unsaved),
 * and offers to restore a draft left by an earlier visit; a draft equal to the saved flow is dropped.
 */
export function DraftBanner({ chatbotId }: { chatbotId: string }) {
  const [found, setFound] = useState<Draft | null>(() => {
    const draft = readDraft(chatbotId);
    if (!draft) return null;
    if (differs(draft, useEditorStore.getState())) return draft;
    clearDraft(chatbotId);
    return null;
  });

  useEffect(() => {
    const writer = draftWriter<SavedConfiguration>((configuration) => writeDraft(chatbotId, configuration));
    const unsubscribe = useEditorStore.subscribe((s, before) => {
      // Reset as the editor closes: what is pending is flushed below.
      if (!s.loaded) return;
      if (!s.dirty) return writer.changed(null);
      if (s.nodes === before.nodes && s.edges === before.edges && before.dirty) return;
      writer.changed(() => toConfiguration(s));
    });
    const stop = writer.flushWhenHidden();
    return () => {
      stop();
      writer.flush();
      unsubscribe();
    };
  }, [chatbotId]);

  if (!found) return null;
  return (
    <Banner
      className="border-b"
      savedAt={found.savedAt}
      onRestore={() => {
        useEditorStore.getState().setGraph(fromConfiguration(found.configuration).graph);
        setFound(null);
      }}
      onDiscard={() => {
        clearDraft(chatbotId);
        setFound(null);
      }}
    />
  );
}
