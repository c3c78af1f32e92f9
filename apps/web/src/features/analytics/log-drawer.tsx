import type { LogDetail } from '@atelier/schemas';
import { X } from 'lucide-react';
import { Dialog as D } from 'radix-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatInstant, formatMs } from './format';
import { useLogDetail } from './queries';
import { StatusBadge } from './status-badge';

/** A log's details in a panel from the right (full width on a phone). */
export function LogDrawer({ id, onClose }: { id: string | null; onClose(): void }) {
  const { t } = useTranslation();
  const detail = useLogDetail(id);
  return (
    <D.Root open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <D.Content
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xl flex-col border-l bg-card text-card-foreground shadow-xl focus:outline-none"
          data-testid="log-drawer"
        >
          <div className="flex items-center justify-between gap-2 border-b px-5 py-4">
            <D.Title className="text-lg font-semibold">{t('analytics.detail.title')}</D.Title>
            <D.Close
              className="rounded-sm opacity-70 transition-opacity hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label={t('common.close')}
            >
              <X className="size-4" />
            </D.Close>
          </div>
          <D.Description className="sr-only">{t('analytics.detail.description')}</D.Description>
          <div className="flex-1 overflow-y-auto px-5 py-4">
            {detail.isPending ? (
              <p role="status" className="text-sm text-muted-foreground">
                {t('common.loading')}
              </p>
            ) : detail.isError ? (
              <p role="alert" className="text-sm text-destructive">
                {t('errors.loadError')}
              </p>
            ) : (
              <Detail log={detail.data} />
            )}
          </div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

function Text({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <section className="grid gap-1">
      <h3 className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</h3>
      <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-lg border bg-muted/40 p-3 font-mono text-xs">
        {value || t('analytics.detail.emptyText')}
      </pre>
    </section>
  );
}

function Detail({ log }: { log: LogDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const yes = (b: boolean) => (b ? t('analytics.detail.yes') : t('analytics.detail.no'));
  return (
    <div className="grid gap-5">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <Field label={t('analytics.logs.time')}>{formatInstant(log.created_at, lang)}</Field>
        <Field label={t('analytics.logs.status')}>
          <StatusBadge status={log.status} />
        </Field>
        <Field label={t('analytics.logs.chatbot')}>{log.chatbot_name || '–'}</Field>
        <Field label={t('analytics.logs.user')}>{log.user_email ?? '–'}</Field>
        <Field label={t('analytics.logs.model')}>{log.model_name}</Field>
        <Field label={t('analytics.detail.providerModel')}>
          {log.provider_model_name} ({log.provider_type})
        </Field>
        <Field label={t('analytics.detail.firstToken')}>{formatMs(log.first_token_ms, lang)}</Field>
        <Field label={t('analytics.detail.totalTime')}>{formatMs(log.total_ms, lang)}</Field>
        <Field label={t('analytics.detail.words')}>
          {log.request_words} / {log.response_words}
        </Field>
        <Field label={t('analytics.detail.tokens')}>
          {log.input_tokens} / {log.output_tokens}
        </Field>
        <Field label={t('analytics.detail.streamed')}>{yes(log.streamed)}</Field>
        <Field label={t('analytics.detail.fallback')}>{yes(log.fallback)}</Field>
      </dl>
      {log.error ? (
        <div
          role="note"
          className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
        >
          {log.error_message || t('analytics.status.error')}
        </div>
      ) : null}
      {log.content_stored ? (
        <>
          <Text label={t('analytics.detail.userMessage')} value={log.user_message} />
          <Text label={t('analytics.detail.response')} value={log.response} />
          <Text label={t('analytics.detail.prompt')} value={log.complete_prompt} />
        </>
      ) : (
        <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
          {t('analytics.detail.metricsOnly')}
        </p>
      )}
    </div>
  );
}
