import type { ModelType } from '@atelier/schemas';

export interface RemoteModel {
  name: string;
  suggested_type: ModelType | null;
}

/** The type every chosen model agrees on, or null when they disagree, have none, or none is chosen. */
export function suggestType(models: readonly RemoteModel[], chosen: Iterable<string>): ModelType | null {
  const names = new Set(chosen);
  const types = new Set(models.filter((m) => names.has(m.name)).map((m) => m.suggested_type));
  if (types.size !== 1) return null;
  return [...types][0] ?? null;
}

/** Case-insensitive match on any part of the name; an empty search keeps every model. */
export function filterModels<T extends { name: string }>(models: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  return needle ? models.filter((m) => m.name.toLowerCase().includes(needle)) : [...models];
}

export interface ImportErrors {
  models?: 'providers.import.noModels';
  type?: 'providers.import.typeRequired';
}

/** Both problems at once, so a missing type is reported even before any model is ticked. */
export function validateImport(chosenCount: number, type: ModelType | ''): ImportErrors {
  const errors: ImportErrors = {};
  if (chosenCount === 0) errors.models = 'providers.import.noModels';
  if (!type) errors.type = 'providers.import.typeRequired';
  return errors;
}

/** The names already added for this provider, so the list can mark them instead of adding twins. */
export function importedNames(
  models: readonly { provider_id: string; model_name: string }[],
  providerId: string | null,
): Set<string> {
  return new Set(models.filter((m) => m.provider_id === providerId).map((m) => m.model_name));
}

/** The display name sent with an imported model: the provider's name for it, within the API's limit. */
export const displayNameOf = (modelName: string) => modelName.slice(0, 120);
