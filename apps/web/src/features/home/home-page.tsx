import { Link } from '@tanstack/react-router';
import { ArrowRight, BarChart3, Boxes, BookOpenText, MessagesSquare } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { navItemsFor } from '@/routes/access';
import { useAppStore, useSelectedWorkspace } from '@/stores/app-store';

const ICONS = {
  '/providers': Boxes,
  '/knowledges': BookOpenText,
  '/studio': Boxes,
  '/chat': MessagesSquare,
  '/analytics': BarChart3,
};

/** Welcome and a get-started call, with a card for each place the role may go. */
export default function HomePage() {
  const { t } = useTranslation();
  const user = useAppStore((s) => s.user);
  const workspace = useSelectedWorkspace();
  if (!user) return null;
  const builder = user.user_role_id !== 'user';
  return (
    <div className="grid gap-8">
      <section className="rounded-2xl border bg-gradient-to-br from-primary/10 via-card to-card p-8">
        <p className="text-sm font-medium text-primary">{workspace?.name}</p>
        <h1 className="mt-1 text-3xl font-semibold tracking-tight">
          {t('home.welcome', { name: user.firstName || user.email })}
        </h1>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          {t(builder ? 'home.builderSubtitle' : 'home.userSubtitle')}
        </p>
        <Button asChild className="mt-6">
          <Link to={builder ? '/studio' : '/chat'}>
            {t('home.getStarted')} <ArrowRight />
          </Link>
        </Button>
      </section>
      <section className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {navItemsFor(user.user_role_id).map((item) => {
          const Icon = ICONS[item.to];
          return (
            <Link key={item.to} to={item.to} className="group">
              <Card className="h-full transition-colors group-hover:border-primary/50">
                <CardHeader>
                  <Icon className="size-5 text-primary" />
                  <CardTitle className="text-base">{t(item.key)}</CardTitle>
                  <CardDescription>{t(`home.cards.${item.to.slice(1)}`)}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          );
        })}
      </section>
    </div>
  );
}
