import type { ReactNode } from 'react';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** A labelled select with its hint or error. */
export function ChoiceField({
  id,
  label,
  value,
  items,
  onChange,
  placeholder,
  error,
  hint,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  items: { value: string; label: string }[];
  onChange(value: string): void;
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const note = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    // One column that may be narrower than a long choice (it is cut with an ellipsis, never overflows).
    <div className="grid grid-cols-1 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={note}
          className="aria-invalid:border-destructive"
        >
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {items.map((item) => (
            <SelectItem key={item.value} value={item.value}>
              {item.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {error ? (
        <p id={note} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={note} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
