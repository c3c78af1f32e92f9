import type { ModelType, ModelWithProvider, Provider } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
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
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { displayNameOf, filterModels, importedNames, suggestType, validateImport } from './import-logic';
import { createModel, modelsKey, useRemoteModels } from './queries';
import { RemoteModelList } from './remote-model-list';
import { ModelTypeSelect, ProviderSelect } from './selects';

/** Lists what a provider offers; the ticked models are added with one type, all at once. */
export function ImportModelsDialog({
  open,
  providerId: initialProviderId,
  providers,
  models,
  workspaceId,
  onClose,
}: {
  open: boolean;
  providerId: string | null;
  providers: Provider[];
  models: ModelWithProvider[];
  workspaceId: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [providerId, setProviderId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [type, setType] = useState<ModelType | ''>('');
  const [typeChosenByHand, setTypeChosenByHand] = useState(false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const remote = useRemoteModels(open ? providerId : null);
  const available = remote.data ?? [];
  const added = importedNames(models, providerId);
  const shown = filterModels(available, search);
  const errors = tried ? validateImport(chosen.size, type) : {};

  function reset(nextProvider: string | null) {
    setProviderId(nextProvider);
    setSearch('');
    setChosen(new Set());
    setType('');
    setTypeChosenByHand(false);
    setTried(false);
  }
  useEffect(() => {
    if (open) reset(initialProviderId ?? providers[0]?.id ?? null);
    // Only when the dialog opens: later changes to the provider list must not wipe the choices.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, initialProviderId]);

  function choose(next: Set<string>) {
    setChosen(next);
    if (!typeChosenByHand) setType(suggestType(available, next) ?? '');
  }
  const toggle = (name: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    choose(next);
  };
  const selectable = shown.filter((m) => !added.has(m.name));
  const allShownChosen = selectable.length > 0 && selectable.every((m) => chosen.has(m.name));
  const toggleAll = () => {
    const next = new Set(chosen);
    for (const m of selectable)
      if (allShownChosen) next.delete(m.name);
      else next.add(m.name);
    choose(next);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    const problems = validateImport(chosen.size, type);
    if (problems.models || problems.type || !type || !providerId || busy) return;
    setBusy(true);
    try {
      const names = [...chosen];
      await Promise.all(
        names.map((name) =>
          createModel({
            workspace_id: workspaceId,
            provider_id: providerId,
            name: displayNameOf(name),
            model_name: name,
            model_type: type,
          }),
        ),
      );
      toast.success(t('providers.import.done', { count: names.length }));
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: modelsKey(workspaceId) });
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('providers.import.title')}</DialogTitle>
            <DialogDescription>{t('providers.import.description')}</DialogDescription>
          </DialogHeader>
          <ProviderSelect id={`${id}-provider`} providers={providers} value={providerId} onChange={reset} />
          <div role="group" aria-labelledby={`${id}-available`} className="grid gap-2">
            <div className="flex items-center justify-between gap-2">
              <p id={`${id}-available`} className="text-sm font-medium">
                {t('providers.import.available')}
              </p>
              {selectable.length > 0 ? (
                <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={toggleAll}>
                  {t(allShownChosen ? 'providers.import.clear' : 'providers.import.selectAll')}
                </Button>
              ) : null}
            </div>
            <div className="relative">
              <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
              <Label htmlFor={`${id}-search`} className="sr-only">
                {t('providers.import.search')}
              </Label>
              <Input
                id={`${id}-search`}
                type="search"
                className="pl-8"
                placeholder={t('providers.import.search')}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            <div className="max-h-64 overflow-y-auto rounded-lg border" data-testid="remote-models">
              <RemoteModelList
                id={`${id}-model`}
                remote={providerId ? remote : null}
                shown={shown}
                added={added}
                chosen={chosen}
                onToggle={toggle}
              />
            </div>
            <p className="text-xs text-muted-foreground">
              {t('providers.import.selected', { count: chosen.size })}
            </p>
            {errors.models ? (
              <p role="alert" className="text-xs text-destructive">
                {t(errors.models)}
              </p>
            ) : null}
          </div>
          <ModelTypeSelect
            id={`${id}-type`}
            value={type}
            onChange={(v) => {
              setType(v);
              setTypeChosenByHand(true);
            }}
            error={errors.type ? t(errors.type) : undefined}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('providers.import.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
