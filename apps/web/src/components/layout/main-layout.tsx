import { Outlet } from '@tanstack/react-router';
import { useAppStore } from '@/stores/app-store';
import { Header } from './header';
import { OnboardingGuide } from './onboarding-guide';

/** The main area: header and body; with no workspace selected the body is the onboarding guide. */
export default function MainLayout() {
  const hasWorkspace = useAppStore((s) => s.selectedWorkspaceId !== null);
  return (
    <div className="min-h-screen">
      <Header />
      <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6">
        {hasWorkspace ? <Outlet /> : <OnboardingGuide />}
      </main>
    </div>
  );
}
