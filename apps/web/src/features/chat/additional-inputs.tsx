import { ChevronDown, ChevronUp, Eraser, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useChatStore } from './chat-store';
import { chatErrorText } from './errors';
import {
  acceptFor,
  coerceBoolean,
  isFileType,
  isMultipleFiles,
  type InputField,
  type InputValue,
} from './input-fields';

const textarea =
  'min-h-16 w-full rounded-md border border-input bg-transparent px-3 py-2 font-mono text-xs shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive';

function FieldControl({
  field,
  value,
  id,
  invalid,
}: {
  field: InputField;
  value: InputValue;
  id: string;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  const setValue = useChatStore((s) => s.setInputValue);
  const set = (next: InputValue) => setValue(field.name, next);
  const aria = {
    id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? `${id}-error` : undefined,
  };

  if (field.type === 'boolean') {
    return (
      <div className="flex items-center gap-2">
        <Checkbox
          {...aria}
          checked={coerceBoolean(value)}
          onCheckedChange={(checked) => set(checked === true)}
        />
        <span className="text-sm text-muted-foreground">{t('chatPage.inputs.enabled')}</span>
      </div>
    );
  }
  if (isFileType(field.type)) {
    const multiple = isMultipleFiles(field.type);
    const files = Array.isArray(value) ? value : value instanceof File ? [value] : [];
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Input
          {...aria}
          type="file"
          multiple={multiple}
          accept={acceptFor(field.type)}
          title={t(multiple ? 'chatPage.inputs.chooseFiles' : 'chatPage.inputs.chooseFile')}
          className="h-auto max-w-xs py-1 text-xs"
          onChange={(e) => {
            const chosen = Array.from(e.target.files ?? []);
            set(multiple ? chosen : (chosen[0] ?? null));
          }}
        />
        <span className="text-xs text-muted-foreground">
          {files.length > 0 ? files.map((f) => f.name).join(', ') : t('chatPage.inputs.noFile')}
        </span>
        {files.length > 0 && (
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-7"
            onClick={() => set(multiple ? [] : null)}
            aria-label={t('chatPage.inputs.removeFiles')}
          >
            <X />
          </Button>
        )}
      </div>
    );
  }
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (field.type === 'string' || field.type === 'number') {
    return (
      <Input
        {...aria}
        type={field.type === 'number' ? 'number' : 'text'}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  }
  return (
    <textarea {...aria} className={textarea} rows={3} value={text} onChange={(e) => set(e.target.value)} />
  );
}

/** The values a chatflow or workflow takes besides the message (mandatory ones marked). */
export function AdditionalInputs() {
  const { t } = useTranslation();
  const fields = useChatStore((s) => s.inputFields);
  const values = useChatStore((s) => s.inputValues);
  const errors = useChatStore((s) => s.inputErrors);
  const clearInputs = useChatStore((s) => s.clearInputs);
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
          {fields.map((field, i) => {
            const id = `${baseId}-${i}`;
            const error = errors[field.name];
            return (
              <div key={field.name} className="grid content-start gap-1.5">
                <Label htmlFor={id} className="flex items-center gap-1">
                  <span className="font-mono text-xs">{field.name}</span>
                  {field.is_mandatory && (
                    <span className="text-xs text-destructive">
                      * <span className="sr-only">{t('chatPage.inputs.required')}</span>
                    </span>
                  )}
                </Label>
                <FieldControl
                  field={field}
                  value={values[field.name] ?? null}
                  id={id}
                  invalid={Boolean(error)}
                />
                {error && (
                  <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
                    {chatErrorText(t, error)}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      )}
    </section>
  );
}
