import type { Chatbot } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Loader2, Rocket, Save } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { DraftBanner } from '@/features/drafts/draft-banner';
import { LeaveGuard } from '@/features/drafts/leave-guard';
import { draftStore, draftToOffer, draftWriter } from '@/features/drafts/local-draft';
import { errorText } from '@/lib/api-client';
import { toast } from '@/stores/toasts';
import { Switch, TextAreaField } from './controls';
import { isDirty, simpleConfigBody, simpleFormOf, validateSimple, type SimpleForm as Form } from './logic';
import { CollectionsField, ModelSelect } from './model-fields';
import {
  chatbotKey,
  chatbotsKey,
  publishChatbot,
  saveSimpleConfig,
  useChatModels,
  useKnowledgeCollections,
} from './queries';

/** A simple chatbot's unsaved settings, kept in this browser. */
const simpleDrafts = draftStore<Form>('atelier-simple-draft');

/** The simple chatbot's settings: identity, instruction, models, knowledge and analytics. */
export function SimpleForm({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const models = useChatModels(chatbot.workspace_id);
  const collections = useKnowledgeCollections(chatbot.workspace_id);
  const saved = useMemo(() => simpleFormOf(chatbot), [chatbot]);
  const [form, setForm] = useState<Form>(saved);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState<'save' | 'publish' | null>(null);

  const modelList = models.data ?? [];
  const errors = validateSimple(form, models.isSuccess ? modelList.map((m) => m.id) : null);
  const dirty = isDirty(form, saved);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));
  const shown = (key: string | undefined) => (tried && key ? t(key) : undefined);

  // Unsaved edits are kept in this browser and offered back on the next visit, as in the flow editors.
  const [found, setFound] = useState(() => draftToOffer(simpleDrafts, chatbot.id, saved, isDirty));
  const [writer] = useState(() => draftWriter<Form>((value) => simpleDrafts.write(chatbot.id, value)));
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  useEffect(() => writer.changed(dirty ? () => form : null), [writer, form, dirty]);
  useEffect(() => {
    const stop = writer.flushWhenHidden();
    return () => {
      stop();
      writer.flush();
    };
  }, [writer]);

  async function submit(publish: boolean, event?: FormEvent) {
    event?.preventDefault();
    setTried(true);
    if (busy || Object.keys(errors).length > 0) return;
    setBusy(publish ? 'publish' : 'save');
    try {
      await saveSimpleConfig(chatbot.id, simpleConfigBody(form));
      writer.changed(null);
      simpleDrafts.clear(chatbot.id);
      if (publish) {
        try {
          await publishChatbot(chatbot.id);
          toast.success(t('studio.simple.published'));
        } catch (error) {
          toast.error(t('studio.publish.failed'), errorText(error, t('errors.unknown')));
        }
      } else toast.success(t('studio.simple.saved'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatbotKey(chatbot.id) }),
        // The studio's list is not on screen: fetched now all the same, so going back shows it published.
        queryClient.invalidateQueries({ queryKey: chatbotsKey(chatbot.workspace_id), refetchType: 'all' }),
      ]);
    } catch (error) {
      toast.error(t('errors.generic'), errorText(error, t('errors.unknown')));
    } finally {
      setBusy(null);
    }
  }

  const noModels = models.isSuccess && modelList.length === 0;
  return (
    <form onSubmit={(e) => void submit(false, e)} className="grid gap-6" noValidate>
      {found ? (
        <DraftBanner
          className="rounded-xl border"
          savedAt={found.savedAt}
          onRestore={() => {
            setForm(found.value);
            setFound(null);
          }}
          onDiscard={() => {
            simpleDrafts.clear(chatbot.id);
            setFound(null);
          }}
        />
      ) : null}
      <LeaveGuard dirty={() => dirtyNow.current} />
      <section className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t('studio.fields.name')}
            value={form.name}
            maxLength={120}
            onChange={(e) => set({ name: e.target.value })}
            error={shown(errors.name)}
          />
          <Field
            label={t('studio.fields.description')}
            value={form.description}
            maxLength={2000}
            onChange={(e) => set({ description: e.target.value })}
          />
        </div>
        <TextAreaField
          label={t('studio.simple.instruction')}
          hint={t('studio.simple.instructionHint')}
          placeholder={t('studio.simple.instructionPlaceholder')}
          value={form.instruction}
          rows={12}
          maxLength={100_000}
          className="min-h-64 leading-6"
          onChange={(e) => set({ instruction: e.target.value })}
        />
      </section>

      <section className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
        <h2 className="text-lg font-semibold tracking-tight">{t('studio.simple.modelsTitle')}</h2>
        {noModels ? (
          <p role="note" className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
            {t('studio.simple.noModels')}{' '}
            <Link to="/providers" className="font-medium text-primary hover:underline">
              {t('studio.simple.goProviders')}
            </Link>
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <ModelSelect
            label={t('studio.simple.model')}
            hint={t('studio.simple.modelHint')}
            models={modelList}
            value={form.modelId || null}
            onChange={(modelId) =>
              set({
                modelId: modelId ?? '',
                ...(modelId === form.fallbackModelId ? { fallbackModelId: null } : {}),
              })
            }
            error={shown(errors.model)}
          />
          <ModelSelect
            label={t('studio.simple.fallback')}
            hint={t('studio.simple.fallbackHint')}
            models={modelList.filter((m) => m.id !== form.modelId)}
            value={form.fallbackModelId}
            onChange={(fallbackModelId) => set({ fallbackModelId })}
            optional
            error={shown(errors.fallback)}
          />
        </div>
        <CollectionsField
          collections={collections.data ?? []}
          value={form.collectionIds}
          onChange={(collectionIds) => set({ collectionIds })}
        />
      </section>

      <section className="grid gap-3 rounded-xl border bg-card p-4 sm:p-6">
        <h2 className="text-lg font-semibold tracking-tight">{t('studio.simple.analyticsTitle')}</h2>
        <div className="flex items-start gap-3">
          <Switch
            id={`${id}-store`}
            checked={form.storeConversations}
            onCheckedChange={(storeConversations) => set({ storeConversations })}
            aria-describedby={`${id}-store-hint`}
            className="mt-0.5"
          />
          <div className="grid gap-1">
            <Label htmlFor={`${id}-store`}>{t('studio.simple.storeConversations')}</Label>
            <p id={`${id}-store-hint`} className="text-sm text-muted-foreground">
              {t(form.storeConversations ? 'studio.simple.storeOn' : 'studio.simple.storeOff')}
            </p>
          </div>
        </div>
      </section>

      <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        {dirty ? (
          <Badge variant="outline" role="status" className="text-xs font-medium normal-case tracking-normal">
            {t('studio.simple.unsaved')}
          </Badge>
        ) : (
          <span role="status" className="text-xs text-muted-foreground">
            {t('studio.simple.allSaved')}
          </span>
        )}
        <div className="ml-auto flex flex-wrap gap-2">
          <Button type="submit" variant="outline" disabled={busy !== null}>
            {busy === 'save' ? <Loader2 className="animate-spin" /> : <Save />} {t('studio.simple.save')}
          </Button>
          <Button type="button" disabled={busy !== null} onClick={() => void submit(true)}>
            {busy === 'publish' ? <Loader2 className="animate-spin" /> : <Rocket />}{' '}
            {t('studio.simple.savePublish')}
          </Button>
        </div>
      </div>
    </form>
  );
}
