import type { Chatbot } from '@atelier/schemas';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { apiUrl } from '@/lib/api';
import type { GuideKind } from './chatbot-card';
import { CodeBlock, StatusBadge } from './controls';
import { integrationSnippets } from './logic';

/** How to reach a chatbot from elsewhere: over the API, or by sending people to the chat. */
export function GuidesDialog({
  guide,
  onClose,
}: {
  guide: { chatbot: Chatbot; kind: GuideKind } | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const kind = guide?.kind ?? 'integration';
  return (
    <Dialog open={guide !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            {t(kind === 'integration' ? 'studio.guides.integrationTitle' : 'studio.guides.embedTitle', {
              name: guide?.chatbot.name,
            })}
          </DialogTitle>
          <DialogDescription>
            {t(kind === 'integration' ? 'studio.guides.integrationIntro' : 'studio.guides.embedIntro')}
          </DialogDescription>
        </DialogHeader>
        {guide ? (
          <>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="text-muted-foreground">{t('studio.guides.chatbotId')}</span>
              <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{guide.chatbot.id}</code>
              <StatusBadge published={guide.chatbot.is_published} />
            </div>
            {guide.chatbot.is_published ? null : (
              <p role="note" className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
                {t('studio.guides.publishFirst')}
              </p>
            )}
            {kind === 'integration' ? <Integration chatbotId={guide.chatbot.id} /> : <Embed />}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function Integration({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const snippets = integrationSnippets(apiUrl, chatbotId);
  return (
    <ol className="grid gap-4">
      <li className="grid gap-2">
        <p className="text-sm text-muted-foreground">{t('studio.guides.tokenText')}</p>
        <CodeBlock label={t('studio.guides.tokenStep')} code={snippets.token} />
      </li>
      <li className="grid gap-2">
        <p className="text-sm text-muted-foreground">{t('studio.guides.conversationText')}</p>
        <CodeBlock label={t('studio.guides.conversationStep')} code={snippets.conversation} />
      </li>
      <li className="grid gap-2">
        <p className="text-sm text-muted-foreground">{t('studio.guides.messageText')}</p>
        <CodeBlock label={t('studio.guides.messageStep')} code={snippets.message} />
        <p className="text-sm text-muted-foreground">{t('studio.guides.streamText')}</p>
      </li>
    </ol>
  );
}

function Embed() {
  const { t } = useTranslation();
  const chatUrl = `${window.location.origin}/chat`;
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">{t('studio.guides.embedAccess')}</p>
      <CodeBlock label={t('studio.guides.chatLink')} code={chatUrl} />
      <CodeBlock
        label={t('studio.guides.htmlLink')}
        code={`<a href="${chatUrl}" target="_blank" rel="noopener">${t('studio.guides.linkText')}</a>`}
      />
      <p className="text-sm text-muted-foreground">{t('studio.guides.embedApi')}</p>
    </div>
  );
}
