import { Check, ChevronLeft, ChevronRight, Loader2, RotateCcw, Save } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { CollectionStep } from './collection-step';
import { FinalizeStep } from './finalize-step';
import { SourceStep } from './source-step';
import { canLeave, LAST_STEP, useWizardStore, WIZARD_STEPS } from './wizard-store';

/** The three-step collection wizard: Source, Collection, Finalize (spec section 4). */
export function CollectionWizard({
  workspaceId,
  editing,
  modelLocked = false,
  onSaved,
}: {
  workspaceId: string;
  editing: boolean;
  /** Editing a collection that holds documents: their vectors came from its model. */
  modelLocked?: boolean;
  onSaved(id: string): void;
}) {
  const { t } = useTranslation();
  const step = useWizardStore((s) => s.step);
  const connectors = useWizardStore((s) => s.connectors);
  const models = useWizardStore((s) => s.models);
  const error = useWizardStore((s) => s.error);
  const saving = useWizardStore((s) => s.saving);
  const mayLeave = useWizardStore(canLeave);
  const { next, previous, reset, loadConnectors, loadModels, save, setError } = useWizardStore.getState();

  // Loaded once, and again after a reset cleared them.
  useEffect(() => {
    if (connectors === null) void loadConnectors(workspaceId);
  }, [connectors, workspaceId, loadConnectors]);
  useEffect(() => {
    if (models === null) void loadModels(workspaceId);
  }, [models, workspaceId, loadModels]);

  async function submit() {
    const id = await save(workspaceId);
    if (id) {
      toast.success(t(editing ? 'knowledge.wizard.updated' : 'knowledge.wizard.created'));
      onSaved(id);
    } else {
      toast.error(t('errors.generic'), useWizardStore.getState().error ?? t('errors.unknown'));
    }
  }

  return (
    <div className="grid gap-4" data-testid="collection-wizard">
      <ol className="flex gap-2 sm:grid sm:grid-cols-3" aria-label={t('knowledge.wizard.steps')}>
        {WIZARD_STEPS.map((name, index) => (
          <li
            key={name}
            aria-current={index === step ? 'step' : undefined}
            className={cn(
              'flex min-w-0 items-center gap-2 rounded-lg border px-3 py-2 text-sm',
              index === step && 'flex-1',
              index === step ? 'border-primary bg-primary/5 font-medium' : 'text-muted-foreground',
            )}
          >
            <span
              className={cn(
                'flex size-6 shrink-0 items-center justify-center rounded-full border text-xs',
                index < step && 'border-primary bg-primary text-primary-foreground',
                index === step && 'border-primary text-primary',
              )}
            >
              {index < step ? <Check className="size-3.5" /> : index + 1}
            </span>
            <span className={cn('truncate', index !== step && 'hidden sm:inline')}>
              {t(`knowledge.wizard.${name}.title`)}
            </span>
          </li>
        ))}
      </ol>
      <p role="status" className="text-sm text-muted-foreground" data-testid="wizard-step">
        {t('knowledge.wizard.counter', { step: step + 1, total: WIZARD_STEPS.length })}
      </p>

      {error ? (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          <p className="flex-1">{error}</p>
          <Button size="sm" variant="ghost" onClick={() => setError(null)}>
            {t('common.close')}
          </Button>
        </div>
      ) : null}

      <section className="rounded-xl border bg-card p-4 sm:p-6">
        {step === 0 ? (
          <SourceStep editing={editing} />
        ) : step === 1 ? (
          <CollectionStep modelLocked={modelLocked} />
        ) : (
          <FinalizeStep />
        )}
      </section>

      <div className="flex flex-wrap items-center gap-2">
        <Button variant="ghost" onClick={reset} disabled={saving}>
          <RotateCcw /> {t('knowledge.wizard.reset')}
        </Button>
        <div className="ml-auto flex flex-wrap gap-2">
          <Button variant="outline" onClick={previous} disabled={step === 0 || saving}>
            <ChevronLeft /> {t('common.previous')}
          </Button>
          {step < LAST_STEP ? (
            <Button onClick={next} disabled={!mayLeave}>
              {t('common.next')} <ChevronRight />
            </Button>
          ) : (
            <Button onClick={() => void submit()} disabled={saving}>
              {saving ? <Loader2 className="animate-spin" /> : <Save />}
              {t(editing ? 'knowledge.wizard.saveChanges' : 'knowledge.wizard.createCollection')}
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}
