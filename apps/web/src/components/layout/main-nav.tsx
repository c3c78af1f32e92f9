import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';
import { navItemsFor } from '@/routes/access';
import { useAppStore } from '@/stores/app-store';

/** The main navigation: only the items the role may see; the active one highlighted. */
export function MainNav({ vertical = false }: { vertical?: boolean }) {
  const { t } = useTranslation();
  const role = useAppStore((s) => s.user?.user_role_id);
  const setMenuOpen = useAppStore((s) => s.setMenuOpen);
  if (!role) return null;
  return (
    <nav aria-label={t('menu.mainNavigation')} className={cn('flex gap-1', vertical && 'flex-col')}>
      {navItemsFor(role).map((item) => (
        <Link
          key={item.to}
          to={item.to}
          onClick={() => setMenuOpen(false)}
          className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground"
          activeProps={{ className: 'bg-accent !text-accent-foreground', 'aria-current': 'page' }}
          activeOptions={{ exact: false }}
        >
          {t(item.key)}
          {item.beta ? <Badge>{t('common.beta')}</Badge> : null}
        </Link>
      ))}
    </nav>
  );
}
