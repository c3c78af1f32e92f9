import { Copy } from 'lucide-react';
import { Switch as S } from 'radix-ui';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';

/** A labelled multi-line field, styled like the inputs, with its hint or error. */
export function TextAreaField({
  label,
  hint,
  error,
  className,
  ...props
}: ComponentProps<'textarea'> & { label: ReactNode; hint?: ReactNode; error?: string | undefined }) {
  const id = useId();
  const note = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={note}
        className={cn(
          'flex min-h-20 w-full rounded-md border border-input bg-transparent px-3 py-2 text-sm shadow-sm transition-colors placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
          className,
        )}
        {...props}
      />
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

export function Switch({ className, ...props }: ComponentProps<typeof S.Root>) {
  return (
    <S.Root
      className={cn(
        'peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent bg-input shadow-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary',
        className,
      )}
      {...props}
    >
      <S.Thumb className="pointer-events-none block size-4 rounded-full bg-background shadow transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0" />
    </S.Root>
  );
}

/** Published or draft. */
export function StatusBadge({ published, changes = false }: { published: boolean; changes?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge
        variant={published ? 'default' : 'outline'}
        className="whitespace-nowrap text-xs font-medium normal-case tracking-normal"
      >
        {t(published ? 'studio.status.published' : 'studio.status.draft')}
      </Badge>
      {published && changes ? (
        <Badge
          variant="outline"
          data-testid="unpublished-changes"
          title={t('drafts.unpublishedHint')}
          className="whitespace-nowrap border-amber-500/60 text-xs font-medium normal-case tracking-normal text-amber-700 dark:text-amber-400"
        >
          {t('drafts.unpublished')}
        </Badge>
      ) : null}
    </span>
  );
}

/** A snippet to copy, such as a curl call. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation();
  const copy = () =>
    void navigator.clipboard
      ?.writeText(code)
      .then(() => toast.success(t('studio.guides.copied')))
      .catch(() => undefined);
  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium">{label}</p>
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={copy}
          aria-label={t('studio.guides.copy', { what: label })}
        >
          <Copy /> {t('studio.guides.copyShort')}
        </Button>
      </div>
      <pre className="overflow-x-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs leading-5">
        <code>{code}</code>
      </pre>
    </div>
  );
}
