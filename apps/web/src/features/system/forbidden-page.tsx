import { Link } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { trackPageView } from '@/lib/analytics';

export default function ForbiddenPage() {
  const { t } = useTranslation();
  useEffect(() => trackPageView('Forbidden Page'), []);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <ShieldAlert className="size-7" />
      </div>
      <h1 className="text-2xl font-semibold">{t('forbidden.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('forbidden.message')}</p>
      <Button asChild>
        <Link to="/">{t('forbidden.home')}</Link>
      </Button>
    </main>
  );
}
