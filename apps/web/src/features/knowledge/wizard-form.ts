import type { CreateRagCollectionBody, RagCollection, UpdateRagCollectionBody } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS, type CollectionSplitter, type FullTextLanguage } from '@atelier/schemas/constants';

/** What the collection wizard edits; numbers stay text while typed and are read on save. */
export interface WizardData {
  /** Set when editing: saving then updates instead of creating. */
  id?: string;
  /** null: the workspace's built-in store (a new collection is made in it). */
  connector_id: string | null;
  /** An existing collection of an external connector. */
  collection_name: string | null;
  name: string;
  description: string;
  embeddings_model_id: string;
  splitter: CollectionSplitter;
  chunk_size: string;
  chunk_overlap: string;
  top_k: string;
  score_threshold: string;
  rerank_model_id: string | null;
  ocr_model_id: string | null;
  hybrid: boolean;
  full_text_language: FullTextLanguage;
}

/** Spec section 9: splitter chunk_size 1000, chunk_overlap 100; retrieval 10 documents. */
export const emptyWizardData = (): WizardData => ({
  connector_id: null,
  collection_name: null,
  name: '',
  description: '',
  embeddings_model_id: '',
  splitter: 'recursive',
  chunk_size: '1000',
  chunk_overlap: '100',
  top_k: '10',
  score_threshold: '',
  rerank_model_id: null,
  ocr_model_id: null,
  hybrid: false,
  full_text_language: 'simple',
});

export function wizardDataOf(collection: RagCollection): WizardData {
  const builtin = collection.connector_kind === 'builtin';
  return {
    id: collection.id,
    connector_id: builtin ? null : collection.connector_id,
    collection_name: builtin ? null : collection.collection_name,
    name: collection.name,
    description: collection.description,
    embeddings_model_id: collection.embeddings_model_id ?? '',
    splitter: collection.splitter,
    chunk_size: String(collection.chunk_size),
    chunk_overlap: String(collection.chunk_overlap),
    top_k: String(collection.top_k),
    score_threshold: collection.score_threshold === null ? '' : String(collection.score_threshold),
    rerank_model_id: collection.rerank_model_id,
    ocr_model_id: collection.ocr_model_id,
    hybrid: collection.hybrid,
    full_text_language: collection.full_text_language,
  };
}

const int = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : NaN);
const decimal = (text: string) => (/^\s*-?\d*(\.\d+)?\s*$/.test(text) && text.trim() ? Number(text) : NaN);

export type WizardErrors = Partial<Record<keyof WizardData, string>>;

/** The Collection step's checks; each error is a translation key. */
export function validateCollection(data: WizardData): WizardErrors {
  const errors: WizardErrors = {};
  if (!data.name.trim()) errors.name = 'common.required';
  else if (data.name.trim().length > 120) errors.name = 'knowledge.wizard.errors.nameLength';
  if (!data.embeddings_model_id) errors.embeddings_model_id = 'common.required';
  const size = int(data.chunk_size);
  if (!(size >= 50 && size <= 20_000)) errors.chunk_size = 'knowledge.wizard.errors.chunkSize';
  const overlap = int(data.chunk_overlap);
  if (!(overlap >= 0 && overlap <= 10_000)) errors.chunk_overlap = 'knowledge.wizard.errors.chunkOverlap';
  else if (overlap >= size) errors.chunk_overlap = 'knowledge.wizard.errors.overlapTooLarge';
  const topK = int(data.top_k);
  if (!(topK >= 1 && topK <= KNOWLEDGE_LIMITS.maxTopK)) errors.top_k = 'knowledge.wizard.errors.topK';
  if (data.score_threshold.trim()) {
    const threshold = decimal(data.score_threshold);
    if (!(threshold >= -1 && threshold <= 1)) errors.score_threshold = 'knowledge.wizard.errors.threshold';
  }
  return errors;
}

/** The Source step is complete with the built-in store, or an external connector and one of its collections. */
export const sourceComplete = (data: WizardData) =>
  data.connector_id === null || data.collection_name !== null;

const threshold = (text: string) => (text.trim() ? Number(text) : null);

export function updateBody(data: WizardData): UpdateRagCollectionBody {
  return {
    name: data.name.trim(),
    description: data.description.trim(),
    ...(data.embeddings_model_id ? { embeddings_model_id: data.embeddings_model_id } : {}),
    splitter: data.splitter,
    chunk_size: int(data.chunk_size),
    chunk_overlap: int(data.chunk_overlap),
    top_k: int(data.top_k),
    score_threshold: threshold(data.score_threshold),
    rerank_model_id: data.rerank_model_id,
    ocr_model_id: data.ocr_model_id,
    hybrid: data.hybrid,
    full_text_language: data.full_text_language,
  };
}

export function createBody(data: WizardData, workspaceId: string): CreateRagCollectionBody {
  const { embeddings_model_id, ...rest } = updateBody(data);
  return {
    workspace_id: workspaceId,
    ...rest,
    name: data.name.trim(),
    embeddings_model_id: embeddings_model_id ?? '',
    ...(data.connector_id !== null && data.collection_name !== null
      ? { connector_id: data.connector_id, collection_name: data.collection_name }
      : {}),
  };
}
