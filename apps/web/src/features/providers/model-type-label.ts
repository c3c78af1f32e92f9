import type { ModelType } from '@atelier/schemas/constants';

/** The translation key of a model type's label (providers.modelTypes.*). */
export const modelTypeKey = (type: ModelType) => `providers.modelTypes.${type}` as const;

/** The translation key of a provider kind's label, with the API's label as the fallback. */
export const kindKey = (kind: string) => `providers.kinds.${kind}.label` as const;
export const kindHintKey = (kind: string) => `providers.kinds.${kind}.hint` as const;
