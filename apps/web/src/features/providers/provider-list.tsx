import type { ModelWithProvider, Provider, ProviderKindInfo } from '@atelier/schemas';
import { Activity, Download, Loader2 } from 'lucide-react';
import { EditDeleteButtons } from '@/components/ui/edit-delete-buttons';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { kindKey } from './model-type-label';
import { testProvider } from './queries';

interface Actions {
  onEdit(provider: Provider): void;
  onImport(provider: Provider): void;
  onDelete(provider: Provider): void;
}

/** The workspace's providers as cards, each with its connection test, import, edit and delete. */
export function ProviderList({
  providers,
  kinds,
  models,
  ...actions
}: Actions & {
  providers: Provider[];
  kinds: ProviderKindInfo[];
  models: ModelWithProvider[];
}) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {providers.map((provider) => (
        <li key={provider.id}>
          <ProviderCard
            provider={provider}
            kind={kinds.find((k) => k.kind === provider.kind)}
            modelCount={models.filter((m) => m.provider_id === provider.id).length}
            {...actions}
          />
        </li>
      ))}
    </ul>
  );
}

function ProviderCard({
  provider,
  kind,
  modelCount,
  onEdit,
  onImport,
  onDelete,
}: Actions & { provider: Provider; kind: ProviderKindInfo | undefined; modelCount: number }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [testing, setTesting] = useState(false);

  async function test() {
    setTesting(true);
    try {
      const result = await testProvider(provider.id);
      const detail = t('providers.test.detail', {
        detail: result.detail,
        latency: Math.round(result.latency_ms),
      });
      if (result.ok) toast.success(t('providers.test.ok'), detail);
      else toast.error(t('providers.test.failed'), detail);
    } catch (error) {
      toast.error(t('providers.test.failed'), errorText(error, t('errors.unknown')));
    } finally {
      setTesting(false);
    }
  }

  const url = provider.base_url ?? kind?.default_base_url ?? null;
  return (
    <Card
      role="article"
      aria-labelledby={titleId}
      className="flex h-full flex-col"
      data-testid="provider-card"
    >
      <div className="flex items-start justify-between gap-2 p-4 pb-3">
        <div className="grid min-w-0 gap-1.5">
          <h3 id={titleId} className="truncate font-semibold leading-tight" title={provider.name}>
            {provider.name}
          </h3>
          <Badge variant="secondary" className="w-fit text-xs font-medium normal-case tracking-normal">
            {t(kindKey(provider.kind), { defaultValue: kind?.label ?? provider.kind })}
          </Badge>
        </div>
        <div className="flex shrink-0">
          <EditDeleteButtons
            editLabel={t('providers.list.edit', { name: provider.name })}
            deleteLabel={t('providers.list.delete', { name: provider.name })}
            onEdit={() => onEdit(provider)}
            onDelete={() => onDelete(provider)}
          />
        </div>
      </div>
      <dl className="grid gap-1.5 px-4 text-sm">
        <div className="flex gap-2">
          <dt className="w-24 shrink-0 text-muted-foreground">{t('providers.list.baseUrl')}</dt>
          <dd className="min-w-0 truncate font-mono text-xs leading-5" title={url ?? undefined}>
            {url ?? '—'}
            {provider.base_url === null && url ? (
              <span className="ml-1 font-sans text-muted-foreground">({t('providers.list.default')})</span>
            ) : null}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="w-24 shrink-0 text-muted-foreground">{t('providers.list.apiKey')}</dt>
          <dd className="min-w-0 truncate font-mono text-xs leading-5">
            {provider.api_key_hint ?? (
              <span className="font-sans text-muted-foreground">{t('providers.list.noKey')}</span>
            )}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="w-24 shrink-0 text-muted-foreground">{t('providers.list.models')}</dt>
          <dd>{modelCount}</dd>
        </div>
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 p-4 pt-4">
        <Button size="sm" variant="outline" onClick={() => void test()} disabled={testing}>
          {testing ? <Loader2 className="animate-spin" /> : <Activity />}
          {t('providers.list.test')}
        </Button>
        <Button size="sm" variant="outline" onClick={() => onImport(provider)}>
          <Download /> {t('providers.list.import')}
        </Button>
      </div>
    </Card>
  );
}
