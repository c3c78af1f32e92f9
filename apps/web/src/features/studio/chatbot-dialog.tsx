import type { Chatbot, ChatbotType } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { Field } from '@/components/ui/field';
import { errorText } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { toast } from '@/stores/toasts';
import { TextAreaField } from './controls';
import { CHATBOT_TYPES, EDITOR_ROUTES, typeHintKey, typeKey, validateName } from './logic';
import { chatbotKey, chatbotsKey, createChatbot, updateChatbot } from './queries';

export type ChatbotDialogProps = { onClose(): void } & (
  { mode: 'create'; open: boolean; workspaceId: string } | { mode: 'edit'; chatbot: Chatbot | null }
);

/**
 * Name and description of a chatbot. Creating (`workspaceId`) also asks for its type, then opens its
 * editor; editing (`chatbot`) renames it or changes its description.
 */
export function ChatbotDialog(props: ChatbotDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { onClose } = props;
  const creating = props.mode === 'create';
  const open = creating ? props.open : props.chatbot !== null;
  const chatbot = creating ? null : props.chatbot;
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<ChatbotType>('simple');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(chatbot?.name ?? '');
    setDescription(chatbot?.description ?? '');
    setType('simple');
    setTried(false);
  }, [open, chatbot]);

  const errors = validateName(name);

  async function save() {
    const body = { name: name.trim(), description: description.trim() };
    if (props.mode === 'create') {
      const { workspaceId } = props;
      const { id } = await createChatbot({ workspace_id: workspaceId, ...body, type });
      toast.success(t('studio.create.done'));
      await queryClient.invalidateQueries({ queryKey: chatbotsKey(workspaceId) });
      onClose();
      await navigate({ to: EDITOR_ROUTES[type], params: { chatbotId: id } });
    } else if (chatbot) {
      await updateChatbot(chatbot.id, body);
      toast.success(t('studio.edit.done'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatbotsKey(chatbot.workspace_id) }),
        queryClient.invalidateQueries({ queryKey: chatbotKey(chatbot.id) }),
      ]);
      onClose();
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!open || busy || errors.name) return;
    setBusy(true);
    try {
      await save();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className={creating ? 'max-w-xl' : undefined}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t(creating ? 'studio.create.title' : 'studio.edit.title')}</DialogTitle>
            <DialogDescription>
              {t(creating ? 'studio.create.description' : 'studio.edit.description')}
            </DialogDescription>
          </DialogHeader>
          <Field
            label={t('studio.fields.name')}
            value={name}
            maxLength={120}
            autoFocus={creating}
            onChange={(e) => setName(e.target.value)}
            error={tried && errors.name ? t(errors.name) : undefined}
          />
          <TextAreaField
            label={t('studio.fields.description')}
            value={description}
            maxLength={2000}
            rows={creating ? 2 : 3}
            onChange={(e) => setDescription(e.target.value)}
          />
          {creating && (
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
          )}
          <FormDialogFooter action={creating ? 'create' : 'update'} disabled={busy} onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
