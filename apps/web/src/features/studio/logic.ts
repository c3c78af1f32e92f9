import { ApiError } from '@/lib/api-client';
import type { Chatbot, SimpleConfigBody } from '@atelier/schemas';
import { chatbotTypes, type ChatbotType } from '@atelier/schemas/constants';

export const CHATBOT_TYPES = chatbotTypes;
export const ALL_TYPES = 'all';
export type TypeFilter = ChatbotType | typeof ALL_TYPES;

/** The studio list: a case-insensitive search in name and description, then a type, newest change first. */
export function filterChatbots<T extends Pick<Chatbot, 'name' | 'description' | 'type' | 'updated_at'>>(
  chatbots: readonly T[],
  query: string,
  type: TypeFilter,
): T[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return chatbots
    .filter((c) => type === ALL_TYPES || c.type === type)
    .filter((c) => {
      const text = `${c.name} ${c.description}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

/** Where each type of chatbot is edited (the router's paths). */
export const EDITOR_ROUTES = {
  simple: '/studio/simple/$chatbotId',
  chatflow: '/studio/chatflow/$chatbotId',
  workflow: '/studio/workflow/$chatbotId',
} as const satisfies Record<ChatbotType, string>;

export const chatbotPath = (type: ChatbotType, id: string) =>
  EDITOR_ROUTES[type].replace('$chatbotId', encodeURIComponent(id));

export const typeKey = (type: ChatbotType) => `studio.types.${type}.label`;
export const typeHintKey = (type: ChatbotType) => `studio.types.${type}.hint`;

/** Name is required (the API trims it too); the message is a translation key. */
export function validateName(name: string): { name?: string } {
  return name.trim() ? {} : { name: 'common.required' };
}

/** The simple chatbot editor's form. */
export interface SimpleForm {
  name: string;
  description: string;
  instruction: string;
  modelId: string;
  fallbackModelId: string | null;
  collectionIds: string[];
  storeConversations: boolean;
}

export const simpleFormOf = (chatbot: Chatbot): SimpleForm => ({
  name: chatbot.name,
  description: chatbot.description,
  instruction: chatbot.instruction,
  modelId: chatbot.model_id ?? '',
  fallbackModelId: chatbot.fallback_model_id,
  collectionIds: [...chatbot.knowledge_collection_ids],
  storeConversations: chatbot.store_conversations,
});

/** Errors as translation keys: a name, and a model among those the workspace has. */
export function validateSimple(
  form: SimpleForm,
  /** The workspace's chat models; null while they load (any chosen model is then accepted). */
  modelIds: readonly string[] | null,
): { name?: string; model?: string; fallback?: string } {
  const errors: { name?: string; model?: string; fallback?: string } = { ...validateName(form.name) };
  if (!form.modelId || (modelIds !== null && !modelIds.includes(form.modelId)))
    errors.model = 'common.required';
  if (form.fallbackModelId && form.fallbackModelId === form.modelId)
    errors.fallback = 'studio.simple.fallbackSame';
  return errors;
}

export const simpleConfigBody = (form: SimpleForm): SimpleConfigBody => ({
  name: form.name.trim(),
  description: form.description.trim(),
  instruction: form.instruction,
  model_id: form.modelId,
  fallback_model_id:
    form.fallbackModelId && form.fallbackModelId !== form.modelId ? form.fallbackModelId : null,
  knowledge_collection_ids: form.collectionIds,
  store_conversations: form.storeConversations,
});

/** Whether the form differs from what is saved (the order of collections does not matter). */
export function isDirty(form: SimpleForm, saved: SimpleForm): boolean {
  const sorted = (ids: string[]) => [...ids].sort().join(',');
  return (
    // The server trims both: "Name " saved is "Name", not an unsaved change.
    form.name.trim() !== saved.name.trim() ||
    form.description.trim() !== saved.description.trim() ||
    form.instruction !== saved.instruction ||
    form.modelId !== saved.modelId ||
    (form.fallbackModelId ?? null) !== (saved.fallbackModelId ?? null) ||
    form.storeConversations !== saved.storeConversations ||
    sorted(form.collectionIds) !== sorted(saved.collectionIds)
  );
}

/** The API answers 404 for an unknown chatbot, and 400 or 422 for an id that cannot be one. */
export const isNotFoundError = (error: unknown) =>
  error instanceof ApiError && [400, 404, 422].includes(error.status);
