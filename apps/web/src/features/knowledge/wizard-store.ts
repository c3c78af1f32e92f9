import type { Connector, ModelWithProvider } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { create } from 'zustand';
import { errorText } from '@/lib/api-client';
import {
  createRagCollection,
  fetchConnectors,
  fetchEmbeddingModels,
  fetchPreview,
  fetchOcrModels,
  fetchRerankModels,
  updateRagCollection,
  type PreviewPage,
} from './queries';
import {
  createBody,
  emptyWizardData,
  sourceComplete,
  updateBody,
  wizardDataOf,
  type WizardData,
} from './wizard-form';
import type { RagCollection } from '@atelier/schemas';

export const WIZARD_STEPS = ['source', 'collection', 'finalize'] as const;
export const LAST_STEP = WIZARD_STEPS.length - 1;

export interface WizardModels {
  embeddings: ModelWithProvider[];
  rerank: ModelWithProvider[];
  ocr: ModelWithProvider[];
}

export interface WizardState {
  /** 0 Source, 1 Collection, 2 Finalize. */
  step: number;
  data: WizardData;
  models: WizardModels | null;
  connectors: Connector[] | null;
  preview: PreviewPage | null;
  error: string | null;
  /** Whether the Collection step's configuration is valid: it gates Next there (spec section 4). */
  isValid: boolean;
  saving: boolean;
  next(): void;
  previous(): void;
  /** Back to step 0 with data, models, connectors, preview and error cleared. */
  reset(): void;
  setValid(valid: boolean): void;
  setData(patch: Partial<WizardData>): void;
  /** Edit: the collection's settings become the data (so saving updates it). */
  load(collection: RagCollection): void;
  setError(error: string | null): void;
  loadConnectors(workspaceId: string): Promise<void>;
  loadModels(workspaceId: string): Promise<void>;
  loadPreview(connectorId: string, name: string, offset?: number): Promise<void>;
  /** Updates when the data has an id, otherwise creates; answers the collection's id, or null on failure. */
  save(workspaceId: string): Promise<string | null>;
}

const cleared = () => ({
  step: 0,
  data: emptyWizardData(),
  models: null,
  connectors: null,
  preview: null,
  error: null,
  isValid: false,
  saving: false,
});

/** Whether Next may leave the given step. */
export function canLeave(state: Pick<WizardState, 'step' | 'data' | 'isValid'>): boolean {
  if (state.step === 0) return sourceComplete(state.data);
  if (state.step === 1) return state.isValid;
  return false;
}

export const useWizardStore = create<WizardState>()((set, get) => ({
  ...cleared(),
  next: () => {
    const state = get();
    if (state.step < LAST_STEP && canLeave(state)) set({ step: state.step + 1 });
  },
  previous: () => set({ step: Math.max(0, get().step - 1) }),
  reset: () => set(cleared()),
  setValid: (isValid) => set({ isValid }),
  setData: (patch) => {
    const data = { ...get().data, ...patch };
    // Another source: the collection chosen in the previous one and its preview no longer apply.
    if ('connector_id' in patch && patch.connector_id !== get().data.connector_id) {
      data.collection_name = patch.collection_name ?? null;
      set({ data, preview: null });
      return;
    }
    if ('collection_name' in patch && patch.collection_name !== get().data.collection_name) {
      set({ data, preview: null });
      return;
    }
    set({ data });
  },
  load: (collection) => set({ data: wizardDataOf(collection) }),
  setError: (error) => set({ error }),
  loadConnectors: async (workspaceId) => {
    try {
      set({ connectors: await fetchConnectors(workspaceId) });
    } catch (error) {
      set({ error: errorText(error, 'Unknown error') });
    }
  },
  loadModels: async (workspaceId) => {
    try {
      const [embeddings, rerank, ocr] = await Promise.all([
        fetchEmbeddingModels(workspaceId),
        fetchRerankModels(workspaceId),
        fetchOcrModels(workspaceId),
      ]);
      set({ models: { embeddings, rerank, ocr } });
    } catch (error) {
      set({ error: errorText(error, 'Unknown error') });
    }
  },
  loadPreview: async (connectorId, name, offset = 0) => {
    try {
      const page = await fetchPreview(connectorId, name, KNOWLEDGE_LIMITS.previewDefaultLimit, offset);
      // Only if the choice is still the one asked about.
      const { data } = get();
      if (data.connector_id === connectorId && data.collection_name === name) set({ preview: page });
    } catch (error) {
      set({ error: errorText(error, 'Unknown error') });
    }
  },
  save: async (workspaceId) => {
    const { data, saving } = get();
    if (saving) return null;
    set({ saving: true, error: null });
    try {
      let id: string;
      if (data.id) {
        id = (await updateRagCollection(data.id, updateBody(data))).rag_collection.id;
      } else {
        id = (await createRagCollection(createBody(data, workspaceId))).id;
        set({ data: { ...get().data, id } });
      }
      return id;
    } catch (error) {
      set({ error: errorText(error, 'An error occurred during the creation/edition/deletion!') });
      return null;
    } finally {
      set({ saving: false });
    }
  },
}));
