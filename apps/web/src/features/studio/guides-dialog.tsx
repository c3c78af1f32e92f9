import type { Chatbot } from '@atelier/schemas';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import type { GuideKind } from './chatbot-card';
import { StatusBadge } from './controls';
import { EmbedGuide } from './embed-guide';
import { IntegrationGuide } from './integration-guide';

/** How to reach a chatbot from elsewhere: over the API, or as a chat bubble on other sites. */
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
      <DialogContent closeLabel={t('common.close')} className="max-w-3xl">
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
            {kind === 'integration' ? (
              <IntegrationGuide chatbot={guide.chatbot} />
            ) : (
              <EmbedGuide chatbot={guide.chatbot} />
            )}
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
