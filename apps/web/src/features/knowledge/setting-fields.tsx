import type { SettingField } from '@atelier/schemas';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { TextAreaField } from '@/features/studio/controls';
import type { SettingsForm } from './settings-form';

/** Name, description and the kind's own settings; secret ones as password inputs. */
export function SettingFields({
  fields,
  form,
  onChange,
  errors,
  editing,
  secretHint,
}: {
  fields: readonly SettingField[];
  form: SettingsForm;
  onChange(form: SettingsForm): void;
  errors: Record<string, string>;
  editing: boolean;
  secretHint: string | null;
}) {
  const { t } = useTranslation();
  const errorOf = (key: string) => (errors[key] ? t(errors[key]) : undefined);
  return (
    <>
      <Field
        label={t('knowledge.form.name')}
        value={form.name}
        maxLength={120}
        autoFocus
        onChange={(e) => onChange({ ...form, name: e.target.value })}
        error={errorOf('name')}
      />
      <TextAreaField
        label={t('knowledge.form.description')}
        value={form.description}
        maxLength={2000}
        rows={2}
        onChange={(e) => onChange({ ...form, description: e.target.value })}
        hint={t('knowledge.form.optional')}
      />
      {fields.map((field) => (
        <Field
          key={field.name}
          label={field.label}
          type={field.secret ? 'password' : 'text'}
          autoComplete={field.secret ? 'new-password' : 'off'}
          placeholder={(field.secret && editing ? secretHint : field.placeholder) ?? undefined}
          value={form.settings[field.name] ?? ''}
          maxLength={2000}
          onChange={(e) =>
            onChange({ ...form, settings: { ...form.settings, [field.name]: e.target.value } })
          }
          error={errorOf(`setting.${field.name}`)}
          hint={
            field.secret && editing
              ? t('knowledge.form.keepSecret')
              : field.required
                ? undefined
                : t('knowledge.form.optional')
          }
        />
      ))}
    </>
  );
}
