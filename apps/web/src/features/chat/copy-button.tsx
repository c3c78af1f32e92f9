import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/utils';

/** Copies `text` to the clipboard; says so for a moment (and to screen readers). */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () =>
    void navigator.clipboard?.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  const shown =
    state === 'copied' ? t('chatExtras.copied') : state === 'failed' ? t('chatExtras.copyFailed') : label;
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={shown}
      title={shown}
      className={cn(
        'inline-flex size-7 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        className,
      )}
    >
      {state === 'copied' ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
      <span className="sr-only" aria-live="polite">
        {state === 'idle' ? '' : shown}
      </span>
    </button>
  );
}
