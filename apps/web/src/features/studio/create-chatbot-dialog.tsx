import type { ChatbotType } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
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
import { Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { TextAreaField } from './controls';
import { CHATBOT_TYPES, EDITOR_ROUTES, typeHintKey, typeKey, validateName } from './logic';
import { chatbotsKey, createChatbot } from './queries';

/** Name, description and type of a new chatbot; then its editor opens. */
export function CreateChatbotDialog({
  open,
  workspaceId,
  onClose,
}: {
  open: boolean;
  workspaceId: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<ChatbotType>('simple');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName('');
    setDescription('');
    setType('simple');
    setTried(false);
  }, [open]);

  const errors = validateName(name);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (busy || errors.name) return;
    setBusy(true);
    try {
      const { id } = await createChatbot({
        workspace_id: workspaceId,
        name: name.trim(),
        description: description.trim(),
        type,
      });
      toast.success(t('studio.create.done'));
      await queryClient.invalidateQueries({ queryKey: chatbotsKey(workspaceId) });
      onClose();
      await navigate({ to: EDITOR_ROUTES[type], params: { chatbotId: id } });
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('studio.create.title')}</DialogTitle>
            <DialogDescription>{t('studio.create.description')}</DialogDescription>
          </DialogHeader>
          <Field
            label={t('studio.fields.name')}
            value={name}
            maxLength={120}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            error={tried && errors.name ? t(errors.name) : undefined}
          />
          <TextAreaField
            label={t('studio.fields.description')}
            value={description}
            maxLength={2000}
            rows={2}
            onChange={(e) => setDescription(e.target.value)}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('studio.fields.type')}</legend>
            {CHATBOT_TYPES.map((option) => (
              <label
                key={option}
                className={cn(
                  'flex cursor-pointer gap-3 rounded-lg border p-3 transition-colors hover:bg-accent/50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  type === option && 'border-primary bg-primary/5',
                )}
              >
                <input
                  type="radio"
                  name="chatbot-type"
                  value={option}
                  checked={type === option}
                  onChange={() => setType(option)}
                  className="mt-0.5 accent-primary"
                />
                <span className="grid gap-0.5">
                  <span className="text-sm font-medium">{t(typeKey(option))}</span>
                  <span className="text-xs text-muted-foreground">{t(typeHintKey(option))}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('common.create')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
