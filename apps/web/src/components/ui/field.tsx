import { useId, type ComponentProps, type ReactNode } from 'react';
import { Input } from './input';
import { Label } from './label';

/** A labelled input with its error message, wired for screen readers. */
export function Field({
  label,
  error,
  hint,
  ...props
}: ComponentProps<'input'> & { label: ReactNode; error?: string | undefined; hint?: ReactNode }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
