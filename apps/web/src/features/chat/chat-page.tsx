import { Bot, MessagesSquare, PanelLeft, UserRoundX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/lib/utils';
import { AdditionalInputs } from './additional-inputs';
import { loadConversations, regenerate, retry, stopStreaming } from './chat-actions';
import { useChatStore } from './chat-store';
import { activeConversation } from './selectors';
import { Composer } from './composer';
import { MessageList } from './message-list';
import { ErrorBanner, TimeoutNotice } from './notices';
import { useAssistants, useInputFields } from './queries';
import { Sidebar } from './sidebar';

/** /chat: the internal chat, in its own full-height layout (no main header). */
export default function ChatPage() {
  const { t } = useTranslation();
  const assistants = useAssistants();
  const conversation = useChatStore(activeConversation);
  const draftAssistantId = useChatStore((s) => s.draftAssistantId);
  const messages = useChatStore((s) => s.messages);
  const error = useChatStore((s) => s.error);
  const timeout = useChatStore((s) => s.timeout);
  const loading = useChatStore((s) => s.loading);
  const conversationCount = useChatStore((s) => s.conversations.length);
  const [sidebarOpen, setSidebarOpen] = useState(false);

  const assistantList = assistants.data ?? [];
  const draft = draftAssistantId ? (assistantList.find((a) => a.id === draftAssistantId) ?? null) : null;
  const assistant = conversation ? assistantList.find((a) => a.id === conversation.chatbot_id) : draft;
  const type = conversation?.chatbot_type ?? draft?.type ?? null;
  const fields = useInputFields(conversation?.chatbot_id ?? draft?.id ?? null, type);

  useEffect(() => {
    useChatStore.getState().reset();
    void loadConversations();
    return () => stopStreaming();
  }, []);

  const fieldsData = fields.data;
  useEffect(() => {
    useChatStore.getState().setInputFields(fieldsData ?? []);
  }, [fieldsData]);

  const open = conversation !== null || draft !== null;
  const noAssistants = assistants.isSuccess && assistantList.length === 0 && conversationCount === 0;
  const title = conversation
    ? conversation.title || t('chatPage.history.untitled')
    : draft
      ? t('chatPage.empty.draftTitle', { name: draft.name })
      : t('chatPage.title');

  return (
    <div className="flex h-dvh overflow-hidden bg-background" data-testid="chat-page">
      <aside
        className={cn(
          'fixed inset-y-0 left-0 z-40 w-72 border-r bg-background transition-transform md:static md:translate-x-0 md:bg-muted/30',
          sidebarOpen ? 'translate-x-0' : '-translate-x-full',
        )}
      >
        <Sidebar assistants={assistants} onChosen={() => setSidebarOpen(false)} />
      </aside>
      {sidebarOpen && (
        <div
          aria-hidden
          className="fixed inset-0 z-30 bg-black/40 md:hidden"
          onClick={() => setSidebarOpen(false)}
        />
      )}

      <main className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center gap-2 border-b px-3 py-2 sm:px-6">
          <Button
            size="icon"
            variant="ghost"
            className="md:hidden"
            onClick={() => setSidebarOpen(!sidebarOpen)}
            aria-expanded={sidebarOpen}
            aria-label={sidebarOpen ? t('chatPage.hideSidebar') : t('chatPage.showSidebar')}
          >
            <PanelLeft />
          </Button>
          <div className="min-w-0 flex-1">
            <h2 className="truncate font-semibold" data-testid="chat-title">
              {title}
            </h2>
            {assistant && conversation && (
              <p className="truncate text-xs text-muted-foreground">{assistant.name}</p>
            )}
          </div>
        </header>

        {(error || timeout || fields.isError) && (
          <div className="mx-auto grid w-full max-w-3xl gap-2 px-3 pt-3 sm:px-6">
            {error && <ErrorBanner error={error} onDismiss={() => useChatStore.getState().setError(null)} />}
            {fields.isError && <ErrorBanner error={{ key: 'chatPage.errors.fetchInputFields' }} />}
            {timeout && (
              <TimeoutNotice
                error={timeout}
                retryDisabled={loading}
                onRetry={() => void retry(assistantList)}
                onDismiss={() => useChatStore.getState().dismissTimeout()}
              />
            )}
          </div>
        )}

        {noAssistants ? (
          <EmptyState
            variant="page"
            icon={UserRoundX}
            title={t('chatPage.assistants.emptyTitle')}
            text={t('chatPage.assistants.emptyText')}
          />
        ) : !open ? (
          <EmptyState
            variant="page"
            icon={MessagesSquare}
            title={t('chatPage.empty.title')}
            text={t('chatPage.empty.text')}
            action={
              <Button variant="outline" className="md:hidden" onClick={() => setSidebarOpen(true)}>
                <PanelLeft /> {t('chatPage.showSidebar')}
              </Button>
            }
          />
        ) : (
          <>
            <div className="mx-auto w-full max-w-3xl px-3 pt-3 empty:hidden sm:px-6">
              <AdditionalInputs />
            </div>
            {messages.length > 0 ? (
              <MessageList
                messages={messages}
                busy={loading}
                onRegenerate={() => void regenerate(assistantList)}
              />
            ) : (
              <EmptyState
                variant="page"
                icon={Bot}
                title={draft ? t('chatPage.empty.draftTitle', { name: draft.name }) : title}
                text={draft ? t('chatPage.empty.draftText') : t('chatPage.empty.conversationText')}
              />
            )}
            <Composer assistants={assistantList} allowImages={type === 'simple'} />
          </>
        )}
      </main>
    </div>
  );
}
