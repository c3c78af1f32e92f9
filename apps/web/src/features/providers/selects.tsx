import type { ModelType, Provider } from '@atelier/schemas';
import { useTranslation } from 'react-i18next';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { MODEL_TYPES } from '@/lib/model-types';
import { modelTypeKey } from './model-type-label';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} role="alert" className="text-xs text-destructive">
      {message}
    </p>
  ) : null;
}

/** The provider a model belongs to; fixed once the model exists. */
export function ProviderSelect({
  id,
  providers,
  value,
  onChange,
  disabled,
  error,
}: {
  id: string;
  providers: Provider[];
  value: string | null;
  onChange(providerId: string): void;
  disabled?: boolean;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{t('providers.fields.provider')}</Label>
      <Select value={value ?? ''} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="aria-invalid:border-destructive"
        >
          <SelectValue placeholder={t('providers.fields.chooseProvider')} />
        </SelectTrigger>
        <SelectContent>
          {providers.map((p) => (
            <SelectItem key={p.id} value={p.id}>
              {p.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** One of the model types, by its translated label. */
export function ModelTypeSelect({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: ModelType | '';
  onChange(type: ModelType): void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{t('providers.fields.type')}</Label>
      <Select value={value} onValueChange={(v) => onChange(v as ModelType)}>
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="aria-invalid:border-destructive"
        >
          <SelectValue placeholder={t('providers.fields.chooseType')} />
        </SelectTrigger>
        <SelectContent>
          {MODEL_TYPES.map((type) => (
            <SelectItem key={type} value={type}>
              {t(modelTypeKey(type))}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
