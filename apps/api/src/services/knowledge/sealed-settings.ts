import type { SecretBox } from '@atelier/metering';
import type { SettingField } from '@atelier/schemas';
import { AppError } from '../errors';

/**
 * Settings of a connector or a tool: the plain ones stored as they are, the one secret field sealed
 * with the SecretBox, its context the row's id (like a provider's API key), and shown only as a hint.
 */
export interface SplitSettings {
  plain: Record<string, string>;
  /** The secret field's value when one was given (an empty value counts as not given). */
  secret: string | undefined;
}

/** Splits given settings by the fields of their kind; an unknown setting is refused (422). */
export function splitSettings(
  fields: readonly SettingField[],
  label: string,
  given: Record<string, string>,
): SplitSettings {
  const plain: Record<string, string> = {};
  let secret: string | undefined;
  for (const [name, raw] of Object.entries(given)) {
    const field = fields.find((f) => f.name === name);
    if (!field) {
      const known = fields.map((f) => f.name).join(', ') || 'none';
      throw new AppError(422, 'unknown_setting', `${label} has no setting "${name}" (known: ${known}).`);
    }
    const value = raw.trim();
    if (field.secret) secret = value || undefined;
    else if (value) plain[name] = value;
  }
  return { plain, secret };
}

/** Refuses settings that lack a required field; `hasSecret` says whether a secret is (still) stored. */
export function requireSettings(
  fields: readonly SettingField[],
  label: string,
  plain: Record<string, string>,
  hasSecret: boolean,
): void {
  for (const field of fields) {
    if (!field.required) continue;
    if (field.secret ? !hasSecret : !plain[field.name]) {
      throw new AppError(422, 'setting_required', `${label} needs the setting "${field.label}".`);
    }
  }
}

/** The columns of a sealed secret: bound to the row's id, so it cannot be moved to another row. */
export function sealSecret(box: SecretBox, rowId: string, secret: string) {
  return { secretEncrypted: box.seal(secret, rowId), secretLast4: secret.slice(-4) };
}
