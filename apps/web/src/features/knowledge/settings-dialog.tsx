import type { SettingField } from '@atelier/schemas';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { SettingFields } from './setting-fields';
import { initialSettingsForm, validateSettingsForm, type SettingsForm } from './settings-form';
import { ListSkeleton } from './states';
import { LoadError } from '@/features/providers/states';

export interface KindInfo {
  kind: string;
  label: string;
  description: string;
  fields: SettingField[];
}

export interface Editable {
  name: string;
  kind: string;
  description: string;
  settings: Record<string, string>;
  secret_hint: string | null;
}

/** Create (pick a kind, then fill its settings) or edit (kind fixed) a connector or a tool. */
export function SettingsDialog({
  open,
  item,
  kinds,
  kindsState,
  texts,
  onSubmit,
  onClose,
}: {
  open: boolean;
  item: Editable | null;
  kinds: KindInfo[];
  kindsState: 'pending' | 'error' | 'success';
  texts: {
    pickTitle: string;
    pickDescription: string;
    createTitle(kind: string): string;
    editTitle: string;
    done: string;
  };
  onSubmit(kind: KindInfo, form: SettingsForm): Promise<unknown>;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<KindInfo | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const editing = item !== null;

  // Lists arrive as new arrays on each render: only a new opening, item or set of kinds starts over.
  const itemKey = item ? `${item.kind}:${item.name}` : '';
  const kindsKey = kinds.map((k) => k.kind).join();
  useEffect(() => {
    if (!open) return;
    const fixed = item
      ? (kinds.find((k) => k.kind === item.kind) ?? null)
      : kinds.length === 1
        ? kinds[0]!
        : null;
    setKind(fixed);
    setForm(fixed ? initialSettingsForm(fixed.fields, item) : null);
    setTried(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- itemKey and kindsKey stand for item and kinds
  }, [open, itemKey, kindsKey]);

  function pick(picked: KindInfo) {
    setKind(picked);
    setForm(initialSettingsForm(picked.fields, null));
    setTried(false);
  }

  const errors = tried && kind && form ? validateSettingsForm(kind.fields, form, editing) : {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!kind || !form || busy) return;
    setTried(true);
    if (Object.keys(validateSettingsForm(kind.fields, form, editing)).length > 0) return;
    setBusy(true);
    try {
      await onSubmit(kind, form);
      toast.success(texts.done);
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-h-[90dvh] max-w-xl overflow-y-auto">
        {!kind || !form ? (
          <>
            <DialogHeader>
              <DialogTitle>{texts.pickTitle}</DialogTitle>
              <DialogDescription>{texts.pickDescription}</DialogDescription>
            </DialogHeader>
            {kindsState === 'pending' ? (
              <ListSkeleton count={2} />
            ) : kindsState === 'error' || editing ? (
              <LoadError />
            ) : (
              <ul className="grid gap-2 sm:grid-cols-2">
                {kinds.map((k) => (
                  <li key={k.kind}>
                    <button
                      type="button"
                      onClick={() => pick(k)}
                      className="grid h-full w-full gap-1 rounded-lg border p-3 text-left transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <span className="font-medium">{k.label}</span>
                      <span className="text-xs text-muted-foreground">{k.description}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>{editing ? texts.editTitle : texts.createTitle(kind.label)}</DialogTitle>
              <DialogDescription>{kind.description}</DialogDescription>
            </DialogHeader>
            <SettingFields
              fields={kind.fields}
              form={form}
              onChange={setForm}
              errors={errors}
              editing={editing}
              secretHint={item?.secret_hint ?? null}
            />
            <FormDialogFooter
              action={editing ? 'update' : 'create'}
              disabled={busy}
              onCancel={onClose}
              back={
                editing || kinds.length < 2
                  ? null
                  : { label: t('knowledge.form.back'), onClick: () => setKind(null) }
              }
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
