import type { InputCustomField } from '@atelier/schemas';
import { Loader2, Play, Square } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { chatErrorText } from '@/features/chat/errors';
import { RunInputForm, useInputValues } from './input-form';
import { buildRunInputs, validateRunInputs, type InputErrors } from './input-values';
import { cancelRun, startTestRun } from './run-client';
import { runFailure, type RunFailure } from './run-errors';
import { RunFailureNotice } from './run-failure-notice';
import { draftLabels, RunProgress } from './run-progress';
import { useRunStore } from './run-store';

export interface FlowDraft {
  nodes: unknown[];
  edges: unknown[];
}

export interface RunModalProps {
  chatbotId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  getDraft(): FlowDraft;
  inputFields: InputCustomField[];
}

/**
 * Runs the draft on the canvas (unsaved edits included) with the input node's fields, then shows
 * the run live. Closing the dialog does not stop the run: the canvas keeps showing its progress.
 */
export function RunModal({ chatbotId, open, onOpenChange, getDraft, inputFields }: RunModalProps) {
  const { t } = useTranslation();
  const { values, set: setValue } = useInputValues(inputFields);
  const [errors, setErrors] = useState<InputErrors>({});
  const [failure, setFailure] = useState<RunFailure | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const status = useRunStore((s) => s.status);
  const runId = useRunStore((s) => s.runId);
  const live = preparing || status === 'queued' || status === 'running';
  // Labels are read when the dialog renders: the draft may have changed since the last run.
  const labels = useMemo(() => (open ? draftLabels(getDraft().nodes) : {}), [open, getDraft]);

  async function run(event: FormEvent) {
    event.preventDefault();
    const problems = validateRunInputs(inputFields, values);
    setErrors(problems);
    setFailure(null);
    if (Object.keys(problems).length > 0) return;
    setPreparing(true);
    try {
      const inputs = await buildRunInputs(inputFields, values);
      setPreparing(false);
      await startTestRun(chatbotId, { inputs, configuration: getDraft() });
    } catch (error) {
      const shown = runFailure(error);
      const store = useRunStore.getState();
      // Refused before it started: the dialog explains why. Lost on the way: the run shows it.
      if (!store.runId) {
        store.reset();
        setFailure(shown);
      } else if (shown) {
        store.fail(chatErrorText(t, shown));
      }
    } finally {
      setPreparing(false);
    }
  }

  async function cancel() {
    if (!runId) return;
    setCancelling(true);
    try {
      await cancelRun(runId);
    } catch (error) {
      setFailure(runFailure(error));
    } finally {
      setCancelling(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('flowRuns.close')} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('flowRuns.runModal.title')}</DialogTitle>
          <DialogDescription>{t('flowRuns.runModal.description')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={run} className="grid gap-4" noValidate>
          {inputFields.length > 0 ? (
            <RunInputForm
              fields={inputFields}
              values={values}
              errors={errors}
              disabled={live}
              onChange={(name, value) => {
                setValue(name, value);
                if (errors[name]) setErrors(({ [name]: _fixed, ...rest }) => rest);
              }}
            />
          ) : (
            <p className="text-sm text-muted-foreground">{t('flowRuns.runModal.noInputs')}</p>
          )}
          {failure && <RunFailureNotice failure={failure} labels={labels} />}
          <DialogFooter>
            {live && runId && (
              <Button type="button" variant="outline" onClick={cancel} disabled={cancelling}>
                {cancelling ? <Loader2 className="animate-spin" /> : <Square />}
                {t('flowRuns.cancelRun')}
              </Button>
            )}
            <Button type="submit" disabled={live}>
              {live ? <Loader2 className="animate-spin" /> : <Play />}
              {live ? t('flowRuns.runModal.running') : t('flowRuns.runModal.run')}
            </Button>
          </DialogFooter>
        </form>
        <RunProgress labels={labels} />
      </DialogContent>
    </Dialog>
  );
}
