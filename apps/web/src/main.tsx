import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { watchSessionEvents } from '@/features/auth/session';
import { onAuthLost } from '@/lib/api';
import { initTheme } from '@/lib/theme';
import { makeRouter } from './router';
import './i18n';
import './styles.css';

initTheme();
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
});
const router = makeRouter(queryClient);
watchSessionEvents(queryClient);
onAuthLost(() => {
  if (!window.location.pathname.startsWith('/login')) void router.navigate({ to: '/login' });
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
