import { Link } from '@tanstack/react-router';
import { SearchX } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { trackPageView } from '@/lib/analytics';

/** Any unknown address: laid out as the forbidden page is (icon, title, message, one way home). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  useEffect(() => trackPageView('Not Found Page'), []);
  return (
    <main
      className="flex min-h-[70vh] flex-col items-center justify-center gap-4 px-4 text-center"
      data-testid="not-found-page"
    >
      <div className="flex size-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <SearchX className="size-7" />
      </div>
      <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('notFound.message')}</p>
      <Button asChild>
        <Link to="/">{t('notFoundPage.home')}</Link>
      </Button>
    </main>
  );
}
