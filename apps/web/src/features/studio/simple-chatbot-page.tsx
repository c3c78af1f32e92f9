import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft, SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError, Loading } from '@/features/providers/states';
import { StatusBadge } from './controls';
import { EDITOR_ROUTES, isNotFoundError, typeKey } from './logic';
import { useChatbot } from './queries';
import { SimpleForm } from './simple-form';

/** /studio/simple/$chatbotId: the simple chatbot editor. */
export default function SimpleChatbotPage() {
  const { chatbotId = '' } = useParams({ strict: false });
  return <SimpleChatbotView key={chatbotId} chatbotId={chatbotId} />;
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link
      to="/studio"
      className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" /> {t('studio.simple.back')}
    </Link>
  );
}

function SimpleChatbotView({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const chatbot = useChatbot(chatbotId);

  if (chatbot.isPending) return <Loading />;
  if (chatbot.isError) {
    if (!isNotFoundError(chatbot.error)) return <LoadError />;
    return (
      <div className="grid gap-4" data-testid="chatbot-not-found">
        <EmptyState
          icon={SearchX}
          title={t('studio.simple.notFound')}
          text={t('studio.simple.notFoundText')}
          action={
            <Button variant="outline" asChild>
              <Link to="/studio">
                <ArrowLeft /> {t('studio.simple.back')}
              </Link>
            </Button>
          }
        />
      </div>
    );
  }

  const bot = chatbot.data;
  return (
    <div className="mx-auto grid w-full max-w-4xl grid-cols-1 gap-6" data-testid="simple-chatbot-page">
      <div className="grid grid-cols-1 gap-2">
        <BackLink />
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 truncate text-2xl font-semibold tracking-tight">{bot.name}</h1>
          <Badge variant="secondary" className="text-xs font-medium normal-case tracking-normal">
            {t(typeKey(bot.type))}
          </Badge>
          <StatusBadge published={bot.is_published} changes={bot.has_unpublished_changes} />
        </div>
        <p className="text-sm text-muted-foreground">{t('studio.simple.description')}</p>
      </div>
      {bot.type === 'simple' ? (
        <SimpleForm chatbot={bot} />
      ) : (
        <p className="rounded-xl border border-dashed p-6 text-sm text-muted-foreground">
          {t('studio.simple.otherType')}{' '}
          <Link
            to={EDITOR_ROUTES[bot.type]}
            params={{ chatbotId: bot.id }}
            className="text-primary hover:underline"
          >
            {t('studio.actions.open')}
          </Link>
        </p>
      )}
    </div>
  );
}
