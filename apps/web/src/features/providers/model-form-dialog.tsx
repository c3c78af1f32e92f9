import type { ModelType, ModelWithProvider, Provider } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { parsePriceForm, priceFormOf, type PriceForm } from './pricing';
import { PricingFields } from './pricing-fields';
import { createModel, modelsKey, updateModel } from './queries';
import { ModelTypeSelect, ProviderSelect } from './selects';

interface ModelForm {
  providerId: string | null;
  modelName: string;
  name: string;
  type: ModelType | '';
  description: string;
  prices: PriceForm;
}

const formOf = (model: ModelWithProvider | null, providers: Provider[]): ModelForm => ({
  providerId: model?.provider_id ?? providers[0]?.id ?? null,
  modelName: model?.model_name ?? '',
  name: model?.name ?? '',
  type: model?.model_type ?? '',
  description: model?.description ?? '',
  prices: priceFormOf(model?.pricing),
});

/** Add a model by hand, or edit one: its names, type, description and prices. */
export function ModelFormDialog({
  open,
  model,
  providers,
  workspaceId,
  onClose,
}: {
  open: boolean;
  model: ModelWithProvider | null;
  providers: Provider[];
  workspaceId: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ModelForm>(() => formOf(null, providers));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setForm(formOf(model, providers));
    setTried(false);
    // Only when the dialog opens: a refetched provider list must not wipe what is typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, model]);

  const { pricing, invalid } = parsePriceForm(form.prices);
  const missing = {
    provider: !form.providerId,
    modelName: !form.modelName.trim(),
    type: !form.type,
  };
  const required = (bad: boolean) => (tried && bad ? t('common.required') : undefined);
  const set = (patch: Partial<ModelForm>) => setForm({ ...form, ...patch });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || !form.providerId || !form.type || missing.modelName || invalid.length > 0) return;
    const body = {
      name: form.name.trim() || form.modelName.trim(),
      model_name: form.modelName.trim(),
      model_type: form.type,
      description: form.description.trim(),
      pricing,
    };
    setBusy(true);
    try {
      if (model) {
        await updateModel(model.id, body);
        toast.success(t('providers.modelForm.updated'));
      } else {
        await createModel({ ...body, workspace_id: workspaceId, provider_id: form.providerId });
        toast.success(t('providers.modelForm.created'));
      }
      await queryClient.invalidateQueries({ queryKey: modelsKey(workspaceId) });
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-2xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>
              {t(model ? 'providers.modelForm.editTitle' : 'providers.modelForm.createTitle')}
            </DialogTitle>
            <DialogDescription>
              {t(model ? 'providers.modelForm.editDescription' : 'providers.modelForm.createDescription')}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-4 sm:grid-cols-2">
            <ProviderSelect
              id={`${id}-provider`}
              providers={providers}
              value={form.providerId}
              onChange={(providerId) => set({ providerId })}
              disabled={model !== null}
              error={required(missing.provider)}
            />
            <ModelTypeSelect
              id={`${id}-type`}
              value={form.type}
              onChange={(type) => set({ type })}
              error={required(missing.type)}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t('providers.modelForm.modelName')}
              placeholder={t('providers.modelForm.modelNamePlaceholder')}
              value={form.modelName}
              maxLength={200}
              autoFocus={model === null}
              onChange={(e) => set({ modelName: e.target.value })}
              error={required(missing.modelName)}
              hint={t('providers.modelForm.modelNameHint')}
            />
            <Field
              label={t('providers.modelForm.name')}
              value={form.name}
              maxLength={120}
              onChange={(e) => set({ name: e.target.value })}
              hint={t('providers.modelForm.nameHint')}
            />
          </div>
          <Field
            label={t('providers.modelForm.description')}
            value={form.description}
            maxLength={1000}
            onChange={(e) => set({ description: e.target.value })}
          />
          <PricingFields
            value={form.prices}
            onChange={(prices) => set({ prices })}
            invalid={tried ? invalid : []}
          />
          <FormDialogFooter action={model ? 'update' : 'create'} disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
