import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { watchSessionEvents } from '@/features/auth/session';
import { onAuthLost } from '@/lib/api';
import { safeRedirect } from '@/lib/redirect';
import { initTheme } from '@/lib/theme';
import { makeRouter } from './router';
import './i18n';
import './styles.css';

initTheme();
// Error reporting only when the build was given a DSN: otherwise its code is not even downloaded.
if (import.meta.env.VITE_SENTRY_DSN) {
  const dsn = import.meta.env.VITE_SENTRY_DSN;
  void import('@/lib/error-reporting').then(({ startErrorReporting }) =>
    startErrorReporting({
      dsn,
      environment: import.meta.env.VITE_SENTRY_ENVIRONMENT ?? import.meta.env.MODE,
      release: import.meta.env.VITE_SENTRY_RELEASE,
    }),
  );
}
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
const router = makeRouter(queryClient);
watchSessionEvents(queryClient);
// A session that cannot be refreshed: to /login, saying why, and back to this page after signing in.
onAuthLost(() => {
  const { pathname, search, hash } = window.location;
  if (pathname.startsWith('/login')) return;
  const back = safeRedirect(`${pathname}${search}${hash}`, window.location.origin);
  void router.navigate({ to: '/login', search: { ...(back ? { redirect: back } : {}), reason: 'expired' } });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>
  </StrictMode>,
);
