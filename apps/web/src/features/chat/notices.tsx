import { AlertCircle, Clock, RotateCcw, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { chatErrorText, type ChatError } from './errors';

/** A failure of the page (loading, creating, sending): shown above the messages until dismissed. */
export function ErrorBanner({ error, onDismiss }: { error: ChatError; onDismiss?: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0" />
      <p className="flex-1">{chatErrorText(t, error)}</p>
      {onDismiss && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label={t('chatPage.dismiss')}
          className="rounded p-0.5 hover:bg-destructive/10"
        >
          <X className="size-4" />
        </button>
      )}
    </div>
  );
}

/** The timeout notice: the conversation is saved, the question can be sent again. */
export function TimeoutNotice({
  error,
  onRetry,
  onDismiss,
  retryDisabled,
}: {
  error: ChatError;
  onRetry(): void;
  onDismiss(): void;
  retryDisabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="timeout-notice"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm"
    >
      <Clock className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{t('chatPage.timeout.title')}</p>
        <p className="text-muted-foreground">
          {chatErrorText(t, error)} {t('chatPage.timeout.text')}
        </p>
      </div>
      <Button size="sm" variant="outline" onClick={onRetry} disabled={retryDisabled}>
        <RotateCcw /> {t('chatPage.timeout.retry')}
      </Button>
      <Button size="icon" variant="ghost" onClick={onDismiss} aria-label={t('chatPage.dismiss')}>
        <X />
      </Button>
    </div>
  );
}
