import { BookOpen, Menu, MessageSquareText, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { DOCS_URL, FEEDBACK_URL } from '@/lib/links';
import { useAppStore } from '@/stores/app-store';
import { CreditsIndicator } from './credits-indicator';
import { Logo } from './logo';
import { MainNav } from './main-nav';
import { ThemeSwitch } from './theme-switch';
import { UserMenu } from './user-menu';
import { WorkspaceSelector } from './workspace-selector';

export function Header() {
  const { t } = useTranslation();
  const menuOpen = useAppStore((s) => s.menuOpen);
  const setMenuOpen = useAppStore((s) => s.setMenuOpen);
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="flex h-14 items-center gap-3 px-3 sm:px-4">
        <Button
          variant="ghost"
          size="icon"
          className="lg:hidden"
          aria-label={t(menuOpen ? 'menu.closeMenu' : 'menu.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {menuOpen ? <X /> : <Menu />}
        </Button>
        <Logo />
        <WorkspaceSelector />
        <div className="hidden lg:block">
          <MainNav />
        </div>
        <div className="ml-auto flex items-center gap-1">
          <div className="hidden md:block">
            <CreditsIndicator />
          </div>
          <ThemeSwitch />
          <Button variant="ghost" size="icon" asChild className="hidden sm:inline-flex">
            <a
              href={FEEDBACK_URL}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('header.feedback')}
              title={t('header.feedback')}
            >
              <MessageSquareText />
            </a>
          </Button>
          <Button variant="ghost" size="icon" asChild className="hidden sm:inline-flex">
            <a
              href={DOCS_URL}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t('header.documentation')}
              title={t('header.documentation')}
            >
              <BookOpen />
            </a>
          </Button>
          <UserMenu />
        </div>
      </div>
      {menuOpen ? (
        <div id="mobile-menu" className="grid gap-3 border-t p-3 lg:hidden">
          <MainNav vertical />
          <div className="md:hidden">
            <CreditsIndicator />
          </div>
          <div className="flex gap-2 sm:hidden">
            <Button variant="outline" size="sm" asChild>
              <a href={FEEDBACK_URL} target="_blank" rel="noopener noreferrer">
                <MessageSquareText /> {t('header.feedback')}
              </a>
            </Button>
            <Button variant="outline" size="sm" asChild>
              <a href={DOCS_URL} target="_blank" rel="noopener noreferrer">
                <BookOpen /> {t('header.documentation')}
              </a>
            </Button>
          </div>
        </div>
      ) : null}
    </header>
  );
}
