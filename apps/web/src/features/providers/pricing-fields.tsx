import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { MAX_PRICE, PRICE_FIELDS, type PriceField, type PriceForm } from './pricing';

/** The five prices, in credits; an empty field counts as 0. */
export function PricingFields({
  value,
  onChange,
  invalid,
}: {
  value: PriceForm;
  onChange(value: PriceForm): void;
  invalid: readonly PriceField[];
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-3 rounded-lg border p-3">
      <legend className="px-1 text-sm font-medium">{t('providers.pricing.title')}</legend>
      <p className="-mt-1 text-xs text-muted-foreground">{t('providers.pricing.hint')}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {PRICE_FIELDS.map((field) => (
          <Field
            key={field}
            label={t(`providers.pricing.fields.${field}`)}
            type="number"
            inputMode="decimal"
            min={0}
            max={MAX_PRICE}
            step="any"
            placeholder="0"
            value={value[field]}
            onChange={(e) => onChange({ ...value, [field]: e.target.value })}
            error={invalid.includes(field) ? t('providers.pricing.invalid') : undefined}
          />
        ))}
      </div>
    </fieldset>
  );
}
