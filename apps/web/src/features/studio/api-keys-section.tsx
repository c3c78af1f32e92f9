import type { ApiKey } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { errorText } from '@/lib/api-client';
import { formatDate, formatRelative } from '@/lib/format';
import { toast } from '@/stores/toasts';
import { ApiKeyCreateDialog } from './api-key-create-dialog';
import { apiKeysKey, createApiKey, revokeApiKey, useApiKeys } from './queries';

/** A chatbot's API keys: listed (never the keys), created (shown once), revoked after confirmation. */
export function ApiKeysSection({ chatbotId }: { chatbotId: string }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useApiKeys(chatbotId);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeysKey(chatbotId) });

  async function create(name: string) {
    const created = await createApiKey(chatbotId, name);
    void refresh();
    return created;
  }

  async function revoke(key: ApiKey) {
    try {
      await revokeApiKey(chatbotId, key.id);
      toast.success(t('apiKeys.revoked', { name: key.name }));
    } catch (error) {
      toast.error(t('apiKeys.revokeError'), errorText(error, t('errors.unknown')));
    }
    await refresh();
  }

  const createButton = (
    <Button type="button" size="sm" onClick={() => setCreating(true)}>
      <Plus /> {t('apiKeys.create')}
    </Button>
  );

  return (
    <section aria-labelledby={`${chatbotId}-keys`} className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <h3 id={`${chatbotId}-keys`} className="font-semibold">
            {t('apiKeys.title')}
          </h3>
          <p className="text-sm text-muted-foreground">{t('apiKeys.intro')}</p>
        </div>
        {keys.data && keys.data.length > 0 ? createButton : null}
      </div>
      {keys.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          {t('apiKeys.loading')}
        </p>
      ) : keys.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
          {t('apiKeys.loadError')}
          <Button type="button" size="sm" variant="outline" onClick={() => void keys.refetch()}>
            {t('apiKeys.retry')}
          </Button>
        </div>
      ) : keys.data.length === 0 ? (
        <EmptyState
          icon={KeyRound}
          title={t('apiKeys.emptyTitle')}
          text={t('apiKeys.emptyText')}
          action={createButton}
        />
      ) : (
        <ul className="divide-y rounded-lg border" aria-label={t('apiKeys.title')}>
          {keys.data.map((key) => (
            <li
              key={key.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 p-3"
              data-testid="api-key"
            >
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="truncate font-medium">{key.name}</p>
                <p className="text-xs text-muted-foreground">
                  <code className="font-mono">{key.prefix}…</code>
                  {' · '}
                  {t('apiKeys.created', { date: formatDate(key.created_at, i18n.language) })}
                  {' · '}
                  {key.last_used_at
                    ? t('apiKeys.lastUsed', { when: formatRelative(key.last_used_at, i18n.language) })
                    : t('apiKeys.neverUsed')}
                </p>
              </div>
              <Button
                type="button"
                size="sm"
                variant="ghost"
                className="text-destructive hover:text-destructive"
                aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                onClick={() => setRevoking(key)}
              >
                <Trash2 /> {t('apiKeys.revoke')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ApiKeyCreateDialog open={creating} onCreate={create} onClose={() => setCreating(false)} />
      <AlertDialog open={revoking !== null} onOpenChange={(o) => !o && setRevoking(null)}>
        <AlertDialogContent>
          <AlertDialogTitle>{t('apiKeys.revokeTitle', { name: revoking?.name })}</AlertDialogTitle>
          <AlertDialogDescription>{t('apiKeys.revokeText')}</AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => revoking && void revoke(revoking)}>
              {t('apiKeys.revoke')}
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
