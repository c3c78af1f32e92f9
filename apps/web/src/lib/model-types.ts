import { modelTypes, type ModelType } from '@atelier/schemas/constants';

/** The model types in the order the selects show them: the contract's list (zod-free entry). */
export const MODEL_TYPES = modelTypes;

/** The types of model a simple chatbot can answer with. */
export const CHAT_MODEL_TYPES = ['llm', 'llm-multimodal'] as const satisfies readonly ModelType[];
