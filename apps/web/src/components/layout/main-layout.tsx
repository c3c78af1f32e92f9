import { Outlet, useRouterState } from '@tanstack/react-router';
import { cn } from '@/lib/utils';
import { useAppStore } from '@/stores/app-store';
import { Header } from './header';
import { OnboardingGuide } from './onboarding-guide';

/** The main area: header and body; with no workspace selected the body is the onboarding guide. */
export default function MainLayout() {
  const hasWorkspace = useAppStore((s) => s.selectedWorkspaceId !== null);
  // The canvas editors take the whole width and height under the header.
  const fullBleed = useRouterState({
    select: (s) => /^\/studio\/(chatflow|workflow)\//.test(s.location.pathname),
  });
  return (
    <div className="min-h-screen">
      <Header />
      <main className={cn('w-full', !(fullBleed && hasWorkspace) && 'mx-auto max-w-7xl px-4 py-6 sm:px-6')}>
        {hasWorkspace ? <Outlet /> : <OnboardingGuide />}
      </main>
    </div>
  );
}
