import type { Provider, ProviderKindInfo } from '@atelier/schemas';
import type { CreateProvider, UpdateProvider } from './queries';

export interface ProviderForm {
  name: string;
  baseUrl: string;
  apiKey: string;
  settings: Record<string, string>;
}

/** Translation keys of the problems, by field; settings are keyed `setting.<name>`. */
export type ProviderFormErrors = Record<string, 'common.required' | 'providers.form.invalidUrl'>;

const URL_PATTERN = /^https?:\/\/[^\s/?#]+\S*$/i;

/** A new provider starts from the kind's defaults; an edited one from what is stored (never its key). */
export function initialProviderForm(kind: ProviderKindInfo, provider: Provider | null): ProviderForm {
  return {
    name: provider?.name ?? '',
    baseUrl: provider ? (provider.base_url ?? '') : kind.needs_base_url ? (kind.default_base_url ?? '') : '',
    apiKey: '',
    settings: Object.fromEntries(
      kind.settings.map((s) => [s.name, provider?.settings[s.name] ?? s.default ?? '']),
    ),
  };
}

/** A key is required only to create a provider of a kind that needs one; editing keeps the stored key. */
export const apiKeyRequired = (kind: ProviderKindInfo, editing: boolean) => kind.needs_api_key && !editing;

export function validateProviderForm(
  kind: ProviderKindInfo,
  form: ProviderForm,
  editing: boolean,
): ProviderFormErrors {
  const errors: ProviderFormErrors = {};
  if (!form.name.trim()) errors.name = 'common.required';
  const url = form.baseUrl.trim();
  if (!url && kind.needs_base_url) errors.baseUrl = 'common.required';
  else if (url && !URL_PATTERN.test(url)) errors.baseUrl = 'providers.form.invalidUrl';
  if (apiKeyRequired(kind, editing) && !form.apiKey.trim()) errors.apiKey = 'common.required';
  for (const setting of kind.settings) {
    if (setting.required && !form.settings[setting.name]?.trim())
      errors[`setting.${setting.name}`] = 'common.required';
  }
  return errors;
}

function settingsOf(kind: ProviderKindInfo, form: ProviderForm): Record<string, string> {
  const entries = kind.settings
    .map((s) => [s.name, form.settings[s.name]?.trim() ?? ''] as const)
    .filter(([, value]) => value !== '');
  return Object.fromEntries(entries);
}

export function createProviderBody(
  workspaceId: string,
  kind: ProviderKindInfo,
  form: ProviderForm,
): CreateProvider {
  const body: CreateProvider = { workspace_id: workspaceId, name: form.name.trim(), kind: kind.kind };
  const url = form.baseUrl.trim();
  if (url) body.base_url = url;
  if (form.apiKey.trim()) body.api_key = form.apiKey.trim();
  const settings = settingsOf(kind, form);
  if (Object.keys(settings).length > 0) body.settings = settings;
  return body;
}

/** An empty base URL goes back to the kind's default; an empty key field keeps the stored key. */
export function updateProviderBody(kind: ProviderKindInfo, form: ProviderForm): UpdateProvider {
  const body: UpdateProvider = {
    name: form.name.trim(),
    base_url: form.baseUrl.trim() || null,
    settings: settingsOf(kind, form),
  };
  if (form.apiKey.trim()) body.api_key = form.apiKey.trim();
  return body;
}
