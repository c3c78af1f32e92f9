import type { Chatbot, EmbedSettings } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
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
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { CodeBlock } from './controls';
import { EmbedOrigins } from './embed-origins';
import { embedKey, embedSnippets, regenerateEmbedToken, saveEmbed, useEmbed } from './embed-queries';

type Draft = Pick<EmbedSettings, 'enabled' | 'allowed_origins' | 'greeting' | 'placeholder'>;
const draftOf = (e: EmbedSettings): Draft => ({
  enabled: e.enabled,
  allowed_origins: e.allowed_origins,
  greeting: e.greeting,
  placeholder: e.placeholder,
});

/** The embed guide: the chat bubble on other sites — switch, allowed origins, snippets, token. */
export function EmbedGuide({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation();
  const embed = useEmbed(chatbot.id);
  if (chatbot.type === 'workflow') {
    return (
      <p role="note" className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
        {t('embed.workflow')}
      </p>
    );
  }
  if (embed.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {t('embed.loading')}
      </p>
    );
  }
  if (embed.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-destructive">
        {errorText(embed.error, t('embed.loadError'))}
        <Button type="button" size="sm" variant="outline" onClick={() => void embed.refetch()}>
          {t('embed.retry')}
        </Button>
      </div>
    );
  }
  return <EmbedForm chatbotId={chatbot.id} embed={embed.data} />;
}

function EmbedForm({ chatbotId, embed }: { chatbotId: string; embed: EmbedSettings }) {
  const { t } = useTranslation();
  const switchId = useId();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(embed));
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    setDraft(draftOf(embed));
  }, [embed]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(embed));
  const put = (next: EmbedSettings) => queryClient.setQueryData(embedKey(chatbotId), next);

  async function save() {
    setSaving(true);
    try {
      put(await saveEmbed(chatbotId, draft));
      toast.success(t('embed.saved'));
    } catch (error) {
      toast.error(t('embed.saveError'), errorText(error, t('errors.unknown')));
    } finally {
      setSaving(false);
    }
  }

  async function regenerate() {
    try {
      put(await regenerateEmbedToken(chatbotId));
      toast.success(t('embed.regenerated'));
    } catch (error) {
      toast.error(t('embed.regenerateError'), errorText(error, t('errors.unknown')));
    }
  }

  const snippets = embedSnippets(embed);
  return (
    <div className="grid gap-5" data-testid="embed-guide">
      <div className="flex items-start gap-3 rounded-lg border p-3">
        <Switch
          id={switchId}
          checked={draft.enabled}
          onCheckedChange={(enabled) => setDraft({ ...draft, enabled })}
          className="mt-0.5"
        />
        <div className="grid gap-0.5">
          <Label htmlFor={switchId}>{t('embed.enabled')}</Label>
          <p className="text-sm text-muted-foreground">
            {t(draft.enabled ? 'embed.enabledOn' : 'embed.enabledOff')}
          </p>
        </div>
      </div>
      <EmbedOrigins
        origins={draft.allowed_origins}
        onChange={(allowed_origins) => setDraft({ ...draft, allowed_origins })}
      />
      <div className="grid items-start gap-3 sm:grid-cols-2">
        <Field
          label={t('embed.greeting')}
          hint={t('embed.greetingHint')}
          value={draft.greeting}
          maxLength={500}
          onChange={(e) => setDraft({ ...draft, greeting: e.target.value })}
        />
        <Field
          label={t('embed.placeholder')}
          hint={t('embed.placeholderHint')}
          value={draft.placeholder}
          maxLength={120}
          onChange={(e) => setDraft({ ...draft, placeholder: e.target.value })}
        />
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {dirty ? <span className="text-sm text-muted-foreground">{t('embed.unsaved')}</span> : null}
        <Button type="button" disabled={!dirty || saving} onClick={() => void save()}>
          {saving ? t('embed.saving') : t('embed.save')}
        </Button>
      </div>

      <section className="grid gap-3 border-t pt-4" aria-label={t('embed.snippets')}>
        <p className="text-sm text-muted-foreground">{t('embed.scriptHint')}</p>
        <CodeBlock label={t('embed.script')} code={snippets.script} />
        <p className="text-sm text-muted-foreground">{t('embed.iframeHint')}</p>
        <CodeBlock label={t('embed.iframe')} code={snippets.iframe} />
      </section>

      <section className="grid gap-2 border-t pt-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm font-medium">{t('embed.token')}</p>
          <Button type="button" size="sm" variant="outline" onClick={() => setConfirming(true)}>
            <RefreshCw /> {t('embed.regenerate')}
          </Button>
        </div>
        <code
          className="break-all rounded-lg border bg-muted/40 p-2 font-mono text-xs"
          data-testid="embed-token"
        >
          {embed.token}
        </code>
        <p className="text-sm text-muted-foreground">{t('embed.tokenHint')}</p>
      </section>

      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogTitle>{t('embed.regenerateTitle')}</AlertDialogTitle>
          <AlertDialogDescription>{t('embed.regenerateText')}</AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
            <AlertDialogAction onClick={() => void regenerate()}>
              {t('embed.regenerateConfirm')}
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
