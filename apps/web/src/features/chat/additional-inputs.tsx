import { ChevronDown, ChevronUp, Eraser } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useChatStore } from './chat-store';
import { InputFieldRow } from './input-field-row';

/** The values a chatflow or workflow takes besides the message (mandatory ones marked). */
export function AdditionalInputs() {
  const { t } = useTranslation();
  const fields = useChatStore((s) => s.inputFields);
  const values = useChatStore((s) => s.inputValues);
  const errors = useChatStore((s) => s.inputErrors);
  const clearInputs = useChatStore((s) => s.clearInputs);
  const setValue = useChatStore((s) => s.setInputValue);
  const [open, setOpen] = useState(true);
  const baseId = useId();
  const showing = open || Object.keys(errors).length > 0;
  if (fields.length === 0) return null;

  return (
    <section
      aria-labelledby={`${baseId}-title`}
      data-testid="additional-inputs"
      className="rounded-xl border bg-card p-3"
    >
      <div className="flex items-center gap-2">
        <div className="min-w-0 flex-1">
          <h2 id={`${baseId}-title`} className="text-sm font-semibold">
            {t('chatPage.inputs.title')}
          </h2>
          {showing && <p className="text-xs text-muted-foreground">{t('chatPage.inputs.description')}</p>}
        </div>
        <Button type="button" size="sm" variant="ghost" onClick={clearInputs}>
          <Eraser /> {t('chatPage.inputs.clear')}
        </Button>
        <Button
          type="button"
          size="icon"
          variant="ghost"
          onClick={() => setOpen(!open)}
          aria-expanded={showing}
          aria-label={showing ? t('chatPage.inputs.hide') : t('chatPage.inputs.show')}
        >
          {showing ? <ChevronUp /> : <ChevronDown />}
        </Button>
      </div>
      {showing && (
        <div className="mt-3 grid max-h-64 gap-3 overflow-y-auto sm:grid-cols-2">
          {fields.map((field, i) => (
            <InputFieldRow
              key={field.name}
              name={field.name}
              type={field.type}
              mandatory={field.is_mandatory}
              value={values[field.name] ?? null}
              id={`${baseId}-${i}`}
              error={errors[field.name]}
              onChange={(value) => setValue(field.name, value)}
            />
          ))}
        </div>
      )}
    </section>
  );
}
