import type { Provider, ProviderKindInfo } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { kindKey } from './model-type-label';
import {
  apiKeyRequired,
  createProviderBody,
  initialProviderForm,
  updateProviderBody,
  validateProviderForm,
  type ProviderForm,
} from './provider-form';
import { ProviderKindGrid } from './provider-kind-grid';
import { createProvider, modelsKey, providersKey, updateProvider, useProviderKinds } from './queries';
import { LoadError, Loading } from './states';

/** Add a provider (pick its kind, then fill the form) or edit one (its kind is fixed). */
export function ProviderDialog({
  open,
  provider,
  workspaceId,
  onClose,
}: {
  open: boolean;
  provider: Provider | null;
  workspaceId: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const kinds = useProviderKinds();
  const [kind, setKind] = useState<ProviderKindInfo | null>(null);
  const [form, setForm] = useState<ProviderForm | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const editing = provider !== null;

  useEffect(() => {
    if (!open) return;
    const fixed = provider ? (kinds.data?.find((k) => k.kind === provider.kind) ?? null) : null;
    setKind(fixed);
    setForm(fixed ? initialProviderForm(fixed, provider) : null);
    setTried(false);
  }, [open, provider, kinds.data]);

  function pick(picked: ProviderKindInfo) {
    setKind(picked);
    setForm(initialProviderForm(picked, null));
    setTried(false);
  }

  const errors = tried && kind && form ? validateProviderForm(kind, form, editing) : {};
  const errorOf = (field: string) => (errors[field] ? t(errors[field]) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!kind || !form || busy) return;
    setTried(true);
    if (Object.keys(validateProviderForm(kind, form, editing)).length > 0) return;
    setBusy(true);
    try {
      if (provider) {
        await updateProvider(provider.id, updateProviderBody(kind, form));
        toast.success(t('providers.form.updated'));
      } else {
        await createProvider(createProviderBody(workspaceId, kind, form));
        toast.success(t('providers.form.created'));
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: providersKey(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: modelsKey(workspaceId) }),
      ]);
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  const set = (patch: Partial<ProviderForm>) => form && setForm({ ...form, ...patch });
  const kindLabel = kind ? t(kindKey(kind.kind), { defaultValue: kind.label }) : '';

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-xl">
        {!kind || !form ? (
          <>
            <DialogHeader>
              <DialogTitle>{t('providers.form.pickTitle')}</DialogTitle>
              <DialogDescription>{t('providers.form.pickDescription')}</DialogDescription>
            </DialogHeader>
            {kinds.isPending ? (
              <Loading />
            ) : kinds.isError || editing ? (
              <LoadError />
            ) : (
              <ProviderKindGrid kinds={kinds.data} onPick={pick} />
            )}
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>
                {editing
                  ? t('providers.form.editTitle', { name: provider.name })
                  : t('providers.form.createTitle', { kind: kindLabel })}
              </DialogTitle>
              <DialogDescription>
                {t(editing ? 'providers.form.editDescription' : 'providers.form.createDescription')}
              </DialogDescription>
            </DialogHeader>
            <Field
              label={t('providers.form.name')}
              placeholder={t('providers.form.namePlaceholder', { kind: kindLabel })}
              value={form.name}
              maxLength={100}
              autoFocus
              onChange={(e) => set({ name: e.target.value })}
              error={errorOf('name')}
            />
            <Field
              label={t('providers.form.baseUrl')}
              type="url"
              inputMode="url"
              placeholder={kind.default_base_url ?? 'https://'}
              value={form.baseUrl}
              maxLength={500}
              onChange={(e) => set({ baseUrl: e.target.value })}
              error={errorOf('baseUrl')}
              hint={
                kind.needs_base_url
                  ? undefined
                  : kind.default_base_url
                    ? t('providers.form.baseUrlDefault', { url: kind.default_base_url })
                    : t('providers.form.optional')
              }
            />
            <Field
              label={t('providers.form.apiKey')}
              type="password"
              autoComplete="new-password"
              placeholder={provider?.api_key_hint ?? undefined}
              value={form.apiKey}
              maxLength={1000}
              onChange={(e) => set({ apiKey: e.target.value })}
              error={errorOf('apiKey')}
              hint={
                editing
                  ? t('providers.form.keepKey')
                  : apiKeyRequired(kind, editing)
                    ? undefined
                    : t('providers.form.optional')
              }
            />
            {kind.settings.map((setting) => (
              <Field
                key={setting.name}
                label={t(`providers.settings.${setting.name}`, { defaultValue: setting.label })}
                placeholder={setting.default ?? undefined}
                value={form.settings[setting.name] ?? ''}
                maxLength={500}
                onChange={(e) => set({ settings: { ...form.settings, [setting.name]: e.target.value } })}
                error={errorOf(`setting.${setting.name}`)}
                hint={setting.required ? undefined : t('providers.form.optional')}
              />
            ))}
            <FormDialogFooter
              action={editing ? 'update' : 'create'}
              disabled={busy}
              onCancel={onClose}
              back={editing ? null : { label: t('providers.form.back'), onClick: () => setKind(null) }}
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
