import type { InputCustomField } from '@atelier/schemas';
import { useId, useState } from 'react';
import { InputFieldRow } from '@/features/chat/input-field-row';
import { initialValues, type InputErrors, type InputValue } from './input-values';

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
  const baseId = useId();
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {fields.map((field, i) => (
        <InputFieldRow
          key={field.name}
          name={field.name}
          type={field.type}
          mandatory={field.isMandatory}
          value={values[field.name] ?? null}
          id={`${baseId}-${i}`}
          error={errors[field.name]}
          onChange={(value) => onChange(field.name, value)}
          disabled={disabled}
          showType
        />
      ))}
    </div>
  );
}
