import type { Chatbot } from '@atelier/schemas';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, Bot, Plus, Search } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { startDraft } from './chat-actions';
import { useChatStore } from './chat-store';
import { filterConversations, groupByWorkspace } from './selectors';
import { ConversationItem } from './conversation-item';
import { ErrorBanner } from './notices';

interface AssistantsState {
  data: Chatbot[] | undefined;
  isPending: boolean;
  isError: boolean;
}

/** The assistants (each starts a new conversation) and the conversation history with its search. */
export function Sidebar({ assistants, onChosen }: { assistants: AssistantsState; onChosen(): void }) {
  const { t } = useTranslation();
  const conversations = useChatStore((s) => s.conversations);
  const activeId = useChatStore((s) => s.activeId);
  const draftAssistantId = useChatStore((s) => s.draftAssistantId);
  const [query, setQuery] = useState('');
  const names = useMemo(() => new Map((assistants.data ?? []).map((a) => [a.id, a.name])), [assistants.data]);
  const shown = filterConversations(conversations, query);
  const groups = useMemo(
    () => groupByWorkspace(assistants.data ?? [], t('chatExtras.otherWorkspace')),
    [assistants.data, t],
  );

  return (
    <div className="flex h-full flex-col gap-4 overflow-hidden p-3">
      <div className="grid gap-2">
        <Link to="/" className="inline-flex items-center gap-1 text-sm text-primary hover:underline">
          <ArrowLeft className="size-4" /> {t('chatPage.back')}
        </Link>
        <h1 className="flex items-center gap-2 text-lg font-semibold">
          {t('chatPage.title')} <Badge>{t('chatPage.beta')}</Badge>
        </h1>
      </div>

      <section aria-labelledby="chat-assistants" className="grid gap-1">
        <h2
          id="chat-assistants"
          className="px-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground"
        >
          {t('chatPage.assistants.title')}
        </h2>
        {assistants.isPending ? (
          <p role="status" className="px-1 text-sm text-muted-foreground">
            {t('chatPage.assistants.loading')}
          </p>
        ) : assistants.isError ? (
          <ErrorBanner error={{ key: 'chatPage.errors.loadAssistants' }} />
        ) : (assistants.data ?? []).length === 0 ? (
          <p className="px-1 text-sm text-muted-foreground">{t('chatPage.assistants.emptyText')}</p>
        ) : (
          <div className="grid max-h-60 grid-cols-1 gap-2 overflow-y-auto" data-testid="assistant-list">
            {groups.map((group) => (
              <div key={group.name} role="group" aria-label={group.name} className="grid grid-cols-1 gap-0.5">
                {groups.length > 1 && (
                  <p
                    className="truncate px-2 pt-1 text-xs font-medium text-muted-foreground"
                    data-testid="assistant-group"
                  >
                    {group.name}
                  </p>
                )}
                <ul className="grid grid-cols-1 gap-0.5">
                  {group.assistants.map((assistant) => (
                    <li key={assistant.id}>
                      <button
                        type="button"
                        onClick={() => {
                          startDraft(assistant.id);
                          onChosen();
                        }}
                        aria-label={t('chatPage.assistants.newConversationWith', { name: assistant.name })}
                        title={t('chatPage.assistants.newConversation')}
                        className={cn(
                          'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent',
                          draftAssistantId === assistant.id && 'bg-accent',
                        )}
                      >
                        <Bot className="size-4 shrink-0 text-primary" />
                        <span className="min-w-0 flex-1">
                          <span className="block truncate font-medium">{assistant.name}</span>
                          <span className="block truncate text-xs text-muted-foreground">
                            {t(`chatPage.assistants.types.${assistant.type}`)}
                          </span>
                        </span>
                        <Plus className="size-4 shrink-0 text-muted-foreground" />
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </section>

      <section aria-labelledby="chat-history" className="flex min-h-0 flex-1 flex-col gap-2">
        <h2
          id="chat-history"
          className="px-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground"
        >
          {t('chatPage.history.title')}
        </h2>
        <div className="relative">
          <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-muted-foreground" />
          <Input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('chatPage.history.search')}
            aria-label={t('chatPage.history.search')}
            className="pl-8"
          />
        </div>
        {conversations.length === 0 ? (
          <p className="px-1 text-sm text-muted-foreground">{t('chatPage.history.empty')}</p>
        ) : shown.length === 0 ? (
          <p className="px-1 text-sm text-muted-foreground">{t('chatPage.history.noMatch')}</p>
        ) : (
          <ul className="grid grid-cols-1 gap-0.5 overflow-y-auto pb-2" data-testid="conversation-list">
            {shown.map((conversation) => (
              <ConversationItem
                key={conversation.id}
                conversation={conversation}
                active={conversation.id === activeId}
                assistantName={names.get(conversation.chatbot_id)}
                onOpened={onChosen}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
