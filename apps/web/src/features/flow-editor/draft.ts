import { draftStore, sameValue } from '@/features/drafts/local-draft';
import type { Graph } from './graph-ops';
import { fromConfiguration, type SavedConfiguration, toConfiguration } from './serialize';

/** A flow's unsaved edits, kept in this browser (see features/drafts). */
const store = draftStore<SavedConfiguration>('atelier-flow-draft');

export interface Draft {
  savedAt: string;
  configuration: SavedConfiguration;
}

export const writeDraft = (chatbotId: string, configuration: SavedConfiguration) =>
  store.write(chatbotId, configuration);

export function readDraft(chatbotId: string): Draft | null {
  const draft = store.read(chatbotId);
  return draft ? { savedAt: draft.savedAt, configuration: draft.value } : null;
}

export const clearDraft = (chatbotId: string) => store.clear(chatbotId);

/**
 * Whether a draft holds something else than the configuration loaded from the server. Both sides go
 * through the same normalisation (what the canvas keeps of a node) and are compared whatever the order
 * of their keys: the server stores the graph as jsonb, which reorders them, so a plain string
 * comparison took a draft equal to the saved flow for unsaved changes.
 */
export const differs = (draft: Draft, loaded: Graph) =>
  !sameValue(toConfiguration(fromConfiguration(draft.configuration).graph), toConfiguration(loaded));
