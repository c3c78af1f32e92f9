import type { InputCustomField } from '@atelier/schemas';
import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { chatErrorText } from '@/features/chat/errors';
import { acceptFor, coerceBoolean, isFileType, isMultipleFiles } from '@/features/chat/input-fields';
import { initialValues, type InputErrors, type InputValue } from './input-values';

const textarea =
  'min-h-16 w-full rounded-md border border-input bg-transparent px-3 py-2 font-mono text-xs shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive disabled:opacity-50';

interface ControlProps {
  field: InputCustomField;
  value: InputValue;
  id: string;
  invalid: boolean;
  disabled: boolean;
  set(value: InputValue): void;
}

function FileControl({ field, value, set, disabled, ...aria }: ControlProps & Record<string, unknown>) {
  const { t } = useTranslation();
  const multiple = isMultipleFiles(field.type);
  const files = Array.isArray(value) ? value : value instanceof File ? [value] : [];
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Input
        {...aria}
        type="file"
        multiple={multiple}
        disabled={disabled}
        accept={acceptFor(field.type)}
        className="h-auto max-w-xs py-1 text-xs"
        onChange={(e) => {
          const chosen = Array.from(e.target.files ?? []);
          set(multiple ? chosen : (chosen[0] ?? null));
        }}
      />
      <span className="min-w-0 truncate text-xs text-muted-foreground">
        {files.length > 0 ? files.map((f) => f.name).join(', ') : t('flowRuns.form.noFile')}
      </span>
      {files.length > 0 && (
        <Button
          type="button"
          size="icon"
          variant="ghost"
          className="size-7"
          disabled={disabled}
          onClick={() => set(multiple ? [] : null)}
          aria-label={t('flowRuns.form.removeFiles')}
        >
          <X />
        </Button>
      )}
    </div>
  );
}

function FieldControl(props: ControlProps) {
  const { t } = useTranslation();
  const { field, value, id, invalid, disabled, set } = props;
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
          disabled={disabled}
          checked={coerceBoolean(value)}
          onCheckedChange={(checked) => set(checked === true)}
        />
        <span className="text-sm text-muted-foreground">{t('flowRuns.form.enabled')}</span>
      </div>
    );
  }
  if (isFileType(field.type)) return <FileControl {...props} {...aria} />;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (field.type === 'string' || field.type === 'number') {
    return (
      <Input
        {...aria}
        disabled={disabled}
        type={field.type === 'number' ? 'number' : 'text'}
        value={text}
        onChange={(e) => set(e.target.value)}
      />
    );
  }
  // Objects and lists are typed as JSON.
  return (
    <textarea
      {...aria}
      disabled={disabled}
      className={textarea}
      rows={4}
      spellCheck={false}
      value={text}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/** Keeps the typed values while the fields stay the same; new defaults when they change. */
export function useInputValues(fields: readonly InputCustomField[]) {
  const signature = fields.map((f) => `${f.name}:${f.type}`).join('|');
  const [state, setState] = useState(() => ({ signature, values: initialValues(fields) }));
  if (state.signature !== signature) {
    const values = initialValues(fields);
    for (const f of fields) if (f.name in state.values) values[f.name] = state.values[f.name] ?? null;
    setState({ signature, values });
  }
  const set = (name: string, value: InputValue) =>
    setState((s) => ({ ...s, values: { ...s.values, [name]: value } }));
  const reset = () => setState({ signature, values: initialValues(fields) });
  return { values: state.values, set, reset };
}

export interface RunInputFormProps {
  fields: readonly InputCustomField[];
  values: Record<string, InputValue>;
  errors: InputErrors;
  onChange(name: string, value: InputValue): void;
  disabled?: boolean;
}

/** The input node's fields, by type, with mandatory markers and each field's problem under it. */
export function RunInputForm({ fields, values, errors, onChange, disabled = false }: RunInputFormProps) {
  const { t } = useTranslation();
  const baseId = useId();
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {fields.map((field, i) => {
        const id = `${baseId}-${i}`;
        const error = errors[field.name];
        return (
          <div key={field.name} className="grid content-start gap-1.5">
            <Label htmlFor={id} className="flex items-center gap-1.5">
              <span className="font-mono text-xs">{field.name}</span>
              <span className="text-[10px] text-muted-foreground">{field.type}</span>
              {field.isMandatory && (
                <span className="text-xs text-destructive">
                  * <span className="sr-only">{t('flowRuns.form.required')}</span>
                </span>
              )}
            </Label>
            <FieldControl
              field={field}
              value={values[field.name] ?? null}
              id={id}
              invalid={Boolean(error)}
              disabled={disabled}
              set={(value) => onChange(field.name, value)}
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
  );
}
