import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chatbot } from '@atelier/schemas';
import { api } from '@/lib/api';
import { ApiError, errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { clearDraft } from './draft';
import { type FlowProblemView, useEditorStore } from './editor-store';
import { FLOW_ERRORS, publishFlow, saveFlow } from './queries';
import { toConfiguration } from './serialize';

// The server's reason, in the reader's language where its code has a fixed meaning.
const detailOf = (error: unknown) => (error instanceof ApiError ? errorText(error, error.detail) : undefined);

function problemsOf(error: unknown): FlowProblemView[] {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return [];
  const problems = (error.body as { problems?: unknown }).problems;
  return Array.isArray(problems) ? (problems as FlowProblemView[]) : [];
}

/** After a save: whether the chatbot now has unpublished changes is the server's to say. */
async function refreshChatbot(chatbotId: string) {
  try {
    const { chatbot } = await api.get<{ chatbot: Chatbot }>(`/chatbots/${encodeURIComponent(chatbotId)}`);
    if (useEditorStore.getState().chatbot?.id === chatbot.id) useEditorStore.setState({ chatbot });
  } catch {
    // The badge stays as it was; the next load says it right.
  }
}

/**
 * Save and publish (spec section 4): save by type (both through the chatflow path), publish by id. Publish
 * saves unsaved edits first; a refused publish shows the flow's problems on the nodes they concern.
 */
export function useFlowActions(chatbotId: string) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [publishing, setPublishing] = useState(false);

  async function save(quiet = false): Promise<boolean> {
    const s = useEditorStore.getState();
    if (!s.chatbot || !s.loaded) {
      toast.error(t('flow.errors.save'), FLOW_ERRORS.saveNothing);
      return false;
    }
    setSaving(true);
    const snapshot = { nodes: s.nodes, edges: s.edges };
    try {
      await saveFlow(s.chatbot.id, toConfiguration(snapshot));
      // Edits made while the request was out stay unsaved.
      const now = useEditorStore.getState();
      if (now.nodes === snapshot.nodes && now.edges === snapshot.edges) {
        now.markSaved();
        clearDraft(chatbotId);
      }
      void queryClient.invalidateQueries({ queryKey: ['chatbots'] });
      void refreshChatbot(s.chatbot.id);
      if (!quiet) toast.success(t('flow.toolbar.saved'));
      return true;
    } catch (error) {
      // A refused save (a separator pattern the server cannot run safely) names its fields too.
      const problems = problemsOf(error);
      if (problems.length > 0) useEditorStore.getState().setProblems(problems);
      toast.error(
        t('flow.errors.save'),
        problems.length > 0 ? t('flow.toolbar.problemsFound', { count: problems.length }) : detailOf(error),
      );
      return false;
    } finally {
      setSaving(false);
    }
  }

  async function publish(): Promise<void> {
    const s = useEditorStore.getState();
    if (!s.chatbot) {
      toast.error(t('flow.errors.publish'), FLOW_ERRORS.publishNothing);
      return;
    }
    setPublishing(true);
    try {
      if (s.dirty && !(await save(true))) return;
      await publishFlow(s.chatbot.id);
      const now = useEditorStore.getState();
      now.setProblems([]);
      if (now.chatbot) {
        useEditorStore.setState({
          chatbot: { ...now.chatbot, is_published: true, has_unpublished_changes: false },
        });
      }
      void queryClient.invalidateQueries({ queryKey: ['chatbots'] });
      toast.success(t('flow.toolbar.published'));
    } catch (error) {
      const problems = problemsOf(error);
      useEditorStore.getState().setProblems(problems);
      toast.error(
        t('flow.errors.publish'),
        problems.length > 0 ? t('flow.toolbar.problemsFound', { count: problems.length }) : detailOf(error),
      );
    } finally {
      setPublishing(false);
    }
  }

  return { save, publish, saving, publishing };
}
