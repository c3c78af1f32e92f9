import { Link, Outlet } from '@tanstack/react-router';
import { ArrowLeft, Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Logo } from './logo';
import { ThemeSwitch } from './theme-switch';
import { UserMenu } from './user-menu';

/** The administration area: its own header with a way back to the app, and a side menu. */
export default function AdminLayout() {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
        <div className="flex h-14 items-center gap-2 px-3 sm:gap-3 sm:px-4">
          <Logo />
          <span className="hidden text-sm font-semibold text-muted-foreground sm:inline">
            {t('admin.title')}
          </span>
          <Link
            to="/studio"
            className="inline-flex min-w-0 items-center gap-1 text-sm text-primary hover:underline sm:ml-2"
          >
            <ArrowLeft className="size-4 shrink-0" /> <span className="truncate">{t('admin.backToApp')}</span>
          </Link>
          <div className="ml-auto flex items-center gap-1">
            <ThemeSwitch />
            <UserMenu />
          </div>
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row">
        <aside className="md:w-52">
          <nav aria-label={t('admin.menu')} className="flex gap-1 md:flex-col">
            <Link
              to="/admin/users"
              className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent"
              activeProps={{ className: 'bg-accent !text-accent-foreground', 'aria-current': 'page' }}
            >
              <Users className="size-4" /> {t('admin.users.menu')}
            </Link>
          </nav>
        </aside>
        <main className="min-w-0 flex-1">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
