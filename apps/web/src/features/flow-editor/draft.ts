import type { Graph } from './graph-ops';
import { type SavedConfiguration, toConfiguration } from './serialize';

/** Unsaved edits are kept in this browser, so a closed tab or a crash loses nothing. */
const key = (chatbotId: string) => `atelier-flow-draft:${chatbotId}`;

export interface Draft {
  savedAt: string;
  configuration: SavedConfiguration;
}

export function writeDraft(chatbotId: string, graph: Graph): void {
  try {
    const draft: Draft = { savedAt: new Date().toISOString(), configuration: toConfiguration(graph) };
    localStorage.setItem(key(chatbotId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft is a convenience, the server copy stays the truth.
  }
}

export function readDraft(chatbotId: string): Draft | null {
  try {
    const raw = localStorage.getItem(key(chatbotId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<Draft>;
    return typeof draft.savedAt === 'string' && draft.configuration ? (draft as Draft) : null;
  } catch {
    return null;
  }
}

export function clearDraft(chatbotId: string): void {
  try {
    localStorage.removeItem(key(chatbotId));
  } catch {
    // nothing to do
  }
}

/** Whether a draft holds something else than the configuration loaded from the server. */
export const differs = (draft: Draft, loaded: Graph) =>
  JSON.stringify(draft.configuration) !== JSON.stringify(toConfiguration(loaded));
