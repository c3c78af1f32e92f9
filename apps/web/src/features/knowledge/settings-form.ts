import type { SettingField } from '@atelier/schemas';

/** The form of a connector or a tool: its name, description and the settings its kind asks for. */
export interface SettingsForm {
  name: string;
  description: string;
  settings: Record<string, string>;
}

/** Editing shows the stored settings; secrets are never shown and stay empty. */
export function initialSettingsForm(
  fields: readonly SettingField[],
  existing: { name: string; description: string; settings: Record<string, string> } | null,
): SettingsForm {
  const settings: Record<string, string> = {};
  for (const field of fields)
    settings[field.name] = field.secret ? '' : (existing?.settings[field.name] ?? '');
  return { name: existing?.name ?? '', description: existing?.description ?? '', settings };
}

/** Translation keys by field (`name`, `setting.<name>`); a secret left empty on edit keeps the stored one. */
export function validateSettingsForm(
  fields: readonly SettingField[],
  form: SettingsForm,
  editing: boolean,
): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.name.trim()) errors.name = 'common.required';
  for (const field of fields) {
    const value = (form.settings[field.name] ?? '').trim();
    if (field.required && !value && !(editing && field.secret))
      errors[`setting.${field.name}`] = 'common.required';
  }
  return errors;
}

/** The settings to send: empty ones left out (an empty secret on edit keeps the stored secret). */
export function settingsBody(fields: readonly SettingField[], form: SettingsForm): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const field of fields) {
    const value = (form.settings[field.name] ?? '').trim();
    if (value) settings[field.name] = value;
  }
  return settings;
}

export function settingsFormBody(fields: readonly SettingField[], form: SettingsForm) {
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    settings: settingsBody(fields, form),
  };
}
