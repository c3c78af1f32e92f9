import { AlertTriangle, CreditCard, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { chatErrorText } from '@/features/chat/errors';
import { useNodeTitle } from '../node-text';
import type { RunFailure } from './run-errors';

/** Why a run could not start or was lost; for an invalid flow, what to fix node by node. */
export function RunFailureNotice({
  failure,
  labels = {},
}: {
  failure: RunFailure;
  labels?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const title = useNodeTitle();
  const Icon = failure.kind === 'credits' ? CreditCard : failure.kind === 'network' ? WifiOff : AlertTriangle;
  return (
    <div
      role="alert"
      className="grid gap-2 rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm"
    >
      <p className="flex items-start gap-2 font-medium text-destructive">
        <Icon className="mt-0.5 size-4 shrink-0" />
        <span>{chatErrorText(t, failure)}</span>
      </p>
      {failure.kind === 'credits' && (
        <p className="text-xs text-muted-foreground">{t('flowRuns.errors.creditsHint')}</p>
      )}
      {failure.problems.length > 0 && (
        <ul className="grid gap-1 pl-6 text-xs">
          {failure.problems.map((problem, i) => (
            <li key={i} className="list-disc">
              {problem.nodeId && (
                <span className="font-medium">
                  {title(undefined, labels[problem.nodeId]) || problem.nodeId}
                </span>
              )}
              {problem.field && <span className="font-mono text-muted-foreground"> · {problem.field}</span>}
              {(problem.nodeId || problem.field) && ': '}
              {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
