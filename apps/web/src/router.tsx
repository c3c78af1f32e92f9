import type { AppRoleId } from '@atelier/schemas';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { Toaster } from '@/components/layout/toaster';
import { ensureSession } from '@/features/auth/session';
import { tokens } from '@/lib/api';
import { safeRedirect } from '@/lib/redirect';
import { ADMINS, ALL, BUILDERS, guard } from '@/routes/access';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <Toaster />
    </>
  ),
});

type Loader = Parameters<typeof lazyRouteComponent>[0];

const page = <TPath extends string>(path: TPath, loader: Loader) =>
  createRoute({ getParentRoute: () => rootRoute, path, component: lazyRouteComponent(loader) });

// Public routes
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; reason?: 'expired' } => {
    // Only paths of this app ('/x'), never '//host' or another origin.
    const redirect = safeRedirect(search.redirect, window.location.origin);
    return {
      ...(redirect ? { redirect } : {}),
      ...(search.reason === 'expired' ? { reason: 'expired' as const } : {}),
    };
  },
  component: lazyRouteComponent(() => import('@/features/auth/login-page')),
});
const logoutRoute = page('/logout', () => import('@/features/auth/logout-page'));
const requestResetRoute = page('/request-password-reset', () => import('@/features/auth/request-reset-page'));
const resetRoute = page('/reset-password/$token', () => import('@/features/auth/reset-password-page'));
const onboardingRoute = page('/onboarding/$token', () => import('@/features/auth/onboarding-page'));
const forbiddenRoute = page('/forbidden', () => import('@/features/system/forbidden-page'));

/** Every route below needs a session; each then declares the roles it admits. */
const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'authed',
  beforeLoad: async ({ context, location }) => {
    // Tokens that no longer open a session: the session ended (expired, revoked), say so on /login.
    const hadSession = tokens.access() !== null || tokens.refresh() !== null;
    const user = await ensureSession(context.queryClient);
    if (!user) {
      throw redirect({
        to: '/login',
        search: { redirect: location.href, ...(hadSession ? { reason: 'expired' as const } : {}) },
      });
    }
    return { role: user.user_role_id };
  },
});

const roles = (allowed: readonly AppRoleId[]) => ({
  beforeLoad: ({ context }: { context: { role?: AppRoleId } }) => {
    const verdict = guard(context.role, allowed);
    if (verdict !== 'ok') throw redirect({ to: verdict });
  },
});

const mainRoute = createRoute({
  getParentRoute: () => authedRoute,
  id: 'main',
  component: lazyRouteComponent(() => import('@/components/layout/main-layout')),
});

const mainPage = <TPath extends string>(path: TPath, allowed: readonly AppRoleId[], loader: Loader) =>
  createRoute({
    getParentRoute: () => mainRoute,
    path,
    ...roles(allowed),
    component: lazyRouteComponent(loader),
  });

const homeRoute = mainPage('/', ALL, () => import('@/features/home/home-page'));
const mainPages = [
  homeRoute,
  mainPage('/providers', BUILDERS, () => import('@/features/providers/providers-page')),
  mainPage('/knowledges', BUILDERS, () => import('@/features/knowledge/knowledge-page')),
  mainPage(
    '/knowledges/collections/create',
    BUILDERS,
    () => import('@/features/knowledge/create-collection-page'),
  ),
  mainPage(
    '/knowledges/collections/edit/$id',
    BUILDERS,
    () => import('@/features/knowledge/edit-collection-page'),
  ),
  mainPage('/studio', BUILDERS, () => import('@/features/studio/studio-page')),
  mainPage('/studio/simple/$chatbotId', BUILDERS, () => import('@/features/studio/simple-chatbot-page')),
  mainPage('/studio/chatflow/$chatbotId', BUILDERS, () => import('@/features/flow-editor/chatflow-page')),
  mainPage('/studio/workflow/$chatbotId', BUILDERS, () => import('@/features/flow-editor/workflow-page')),
  mainPage('/analytics', ALL, () => import('@/features/analytics/analytics-page')),
];

const chatRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/chat',
  ...roles(ALL),
  component: lazyRouteComponent(() => import('@/features/chat/chat-page')),
});

const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: '/admin',
  ...roles(ADMINS),
  component: lazyRouteComponent(() => import('@/components/layout/admin-layout')),
});
const adminIndexRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/admin/users' });
  },
});
const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  component: lazyRouteComponent(() => import('@/features/admin/users-page')),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  logoutRoute,
  requestResetRoute,
  resetRoute,
  onboardingRoute,
  forbiddenRoute,
  authedRoute.addChildren([
    mainRoute.addChildren(mainPages),
    chatRoute,
    adminRoute.addChildren([adminIndexRoute, adminUsersRoute]),
  ]),
]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultNotFoundComponent: lazyRouteComponent(() => import('@/features/system/not-found-page')),
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
