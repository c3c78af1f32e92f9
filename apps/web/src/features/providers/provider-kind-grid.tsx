import type { ProviderKindInfo } from '@atelier/schemas';
import { ArrowDownUp, Cloud, HardDrive, Plug, Sparkles, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { kindHintKey, kindKey } from './model-type-label';

const ICONS: Partial<Record<string, LucideIcon>> = {
  ollama: HardDrive,
  openai_compatible: Plug,
  rerank: ArrowDownUp,
  anthropic: Sparkles,
};

/** Step one of adding a provider: one button per kind, named by the kind, described by its hint. */
export function ProviderKindGrid({
  kinds,
  onPick,
}: {
  kinds: ProviderKindInfo[];
  onPick(kind: ProviderKindInfo): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="grid gap-2 sm:grid-cols-2" data-testid="provider-kinds">
      {kinds.map((kind) => {
        const Icon = ICONS[kind.kind] ?? Cloud;
        return (
          <button
            key={kind.kind}
            type="button"
            aria-labelledby={`${id}-${kind.kind}`}
            aria-describedby={`${id}-${kind.kind}-hint`}
            onClick={() => onPick(kind)}
            className="flex cursor-pointer items-start gap-3 rounded-lg border bg-background p-3 text-left transition-colors hover:border-primary/60 hover:bg-accent/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
              <Icon className="size-4" />
            </span>
            <span className="grid min-w-0 gap-0.5">
              <span id={`${id}-${kind.kind}`} className="text-sm font-medium">
                {t(kindKey(kind.kind), { defaultValue: kind.label })}
              </span>
              <span id={`${id}-${kind.kind}-hint`} className="text-xs text-muted-foreground">
                {t(kindHintKey(kind.kind), { defaultValue: '' })}
              </span>
            </span>
          </button>
        );
      })}
    </div>
  );
}
