import { Link } from '@tanstack/react-router';
import { ArrowLeft, MessagesSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';

/** /chat has its own layout without the main header; the chat itself arrives with its capability. */
export default function ChatPlaceholderPage() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen">
      <aside className="hidden w-72 flex-col gap-3 border-r bg-muted/30 p-4 md:flex">
        <Link to="/" className="inline-flex items-center gap-1 text-sm text-primary hover:underline">
          <ArrowLeft className="size-4" /> {t('chat.back')}
        </Link>
        <p className="text-sm font-semibold">{t('chat.assistants')}</p>
      </aside>
      <main className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <MessagesSquare className="size-8 text-primary" />
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          {t('pages.chat')} <Badge>{t('common.beta')}</Badge>
        </h1>
        <p className="max-w-md text-sm text-muted-foreground">{t('pages.comingSoon')}</p>
        <Link to="/" className="text-sm text-primary hover:underline md:hidden">
          {t('chat.back')}
        </Link>
      </main>
    </div>
  );
}
