import type { Chatbot } from '@atelier/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Bot, Plus, Search } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { EmptyState } from '@/components/ui/empty-state';
import { ConfirmDelete, LoadError, Loading } from '@/features/providers/states';
import { errorText } from '@/lib/api-client';
import { useSelectedWorkspace } from '@/stores/app-store';
import { toast } from '@/stores/toasts';
import { AccessDialog } from './access-dialog';
import { ChatbotCard, type GuideKind } from './chatbot-card';
import { ChatbotDialog } from './chatbot-dialog';
import { GuidesDialog } from './guides-dialog';
import { ALL_TYPES, CHATBOT_TYPES, filterChatbots, typeKey, type TypeFilter } from './logic';
import {
  chatbotKey,
  chatbotsKey,
  deleteChatbot,
  duplicateChatbot,
  publishChatbot,
  useChatbots,
} from './queries';

/** /studio: the workspace's chatbots and workflows, to create, open, publish, share and delete. */
export default function StudioPage() {
  const workspace = useSelectedWorkspace();
  return workspace ? <StudioView key={workspace.id} workspaceId={workspace.id} /> : null;
}

function StudioView({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const chatbots = useChatbots(workspaceId);
  const [query, setQuery] = useState('');
  const [type, setType] = useState<TypeFilter>(ALL_TYPES);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Chatbot | null>(null);
  const [sharing, setSharing] = useState<Chatbot | null>(null);
  const [guide, setGuide] = useState<{ chatbot: Chatbot; kind: GuideKind } | null>(null);
  const [deleting, setDeleting] = useState<Chatbot | null>(null);

  const all = chatbots.data ?? [];
  const shown = filterChatbots(all, query, type);

  async function act(chatbot: Chatbot, action: () => Promise<unknown>, done: string, failed: string) {
    try {
      await action();
      toast.success(done);
    } catch (error) {
      toast.error(failed, errorText(error, t('errors.unknown')));
    }
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: chatbotsKey(workspaceId) }),
      queryClient.invalidateQueries({ queryKey: chatbotKey(chatbot.id) }),
    ]);
  }

  const actions = {
    onEdit: setEditing,
    onAccess: setSharing,
    onDelete: setDeleting,
    onGuide: (chatbot: Chatbot, kind: GuideKind) => setGuide({ chatbot, kind }),
    onDuplicate: (c: Chatbot) =>
      void act(
        c,
        () => duplicateChatbot(c.id),
        t('studio.duplicate.done', { name: c.name }),
        t('errors.generic'),
      ),
    onPublish: (c: Chatbot) =>
      void act(
        c,
        () => publishChatbot(c.id),
        t('studio.publish.done', { name: c.name }),
        t('studio.publish.failed'),
      ),
  };

  return (
    <div className="grid gap-6" data-testid="studio-page">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t('studio.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('studio.description')}</p>
        </div>
        <Button onClick={() => setCreating(true)}>
          <Plus /> {t('studio.create.button')}
        </Button>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="relative flex-1">
          <Label htmlFor={`${id}-search`} className="sr-only">
            {t('studio.list.search')}
          </Label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id={`${id}-search`}
            type="search"
            className="pl-9"
            placeholder={t('studio.list.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div className="flex items-center gap-2">
          <Label htmlFor={`${id}-type`} className="shrink-0 text-muted-foreground">
            {t('studio.list.filter')}
          </Label>
          <Select value={type} onValueChange={(v) => setType(v as TypeFilter)}>
            <SelectTrigger id={`${id}-type`} className="w-full sm:w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_TYPES}>{t('studio.list.allTypes')}</SelectItem>
              {CHATBOT_TYPES.map((ty) => (
                <SelectItem key={ty} value={ty}>
                  {t(typeKey(ty))}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>

      <section aria-label={t('studio.list.title')} className="grid gap-3">
        {chatbots.isPending ? (
          <Loading />
        ) : chatbots.isError ? (
          <LoadError />
        ) : all.length === 0 ? (
          <EmptyState
            icon={Bot}
            title={t('studio.list.emptyTitle')}
            text={t('studio.list.emptyText')}
            action={
              <Button variant="outline" onClick={() => setCreating(true)}>
                <Plus /> {t('studio.list.emptyAction')}
              </Button>
            }
          />
        ) : shown.length === 0 ? (
          <p
            role="status"
            className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground"
          >
            {t('studio.list.noMatch')}
          </p>
        ) : (
          <>
            <p className="text-xs text-muted-foreground">
              {t('studio.list.count', { shown: shown.length, total: all.length })}
            </p>
            <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
              {shown.map((chatbot) => (
                <li key={chatbot.id}>
                  <ChatbotCard chatbot={chatbot} {...actions} />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <ChatbotDialog
        mode="create"
        open={creating}
        workspaceId={workspaceId}
        onClose={() => setCreating(false)}
      />
      <ChatbotDialog mode="edit" chatbot={editing} onClose={() => setEditing(null)} />
      <AccessDialog chatbot={sharing} onClose={() => setSharing(null)} />
      <GuidesDialog guide={guide} onClose={() => setGuide(null)} />
      <ConfirmDelete
        open={deleting !== null}
        title={t('studio.delete.title')}
        content={t('studio.delete.content', { name: deleting?.name })}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          void act(deleting, () => deleteChatbot(deleting.id), t('studio.delete.done'), t('errors.generic'))
        }
      />
    </div>
  );
}
