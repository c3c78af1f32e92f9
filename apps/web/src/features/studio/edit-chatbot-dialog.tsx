import type { Chatbot } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
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
import { toast } from '@/stores/toasts';
import { TextAreaField } from './controls';
import { validateName } from './logic';
import { chatbotKey, chatbotsKey, updateChatbot } from './queries';

/** Rename a chatbot or change its description. */
export function EditChatbotDialog({ chatbot, onClose }: { chatbot: Chatbot | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!chatbot) return;
    setName(chatbot.name);
    setDescription(chatbot.description);
    setTried(false);
  }, [chatbot]);

  const errors = validateName(name);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!chatbot || busy || errors.name) return;
    setBusy(true);
    try {
      await updateChatbot(chatbot.id, { name: name.trim(), description: description.trim() });
      toast.success(t('studio.edit.done'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatbotsKey(chatbot.workspace_id) }),
        queryClient.invalidateQueries({ queryKey: chatbotKey(chatbot.id) }),
      ]);
      onClose();
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={chatbot !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('studio.edit.title')}</DialogTitle>
            <DialogDescription>{t('studio.edit.description')}</DialogDescription>
          </DialogHeader>
          <Field
            label={t('studio.fields.name')}
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
            error={tried && errors.name ? t(errors.name) : undefined}
          />
          <TextAreaField
            label={t('studio.fields.description')}
            value={description}
            maxLength={2000}
            rows={3}
            onChange={(e) => setDescription(e.target.value)}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={busy}>
              {t('common.update')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
