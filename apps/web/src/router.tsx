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
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    // Only paths of this app: '/x', never '//host' (which a browser reads as another site).
    typeof search.redirect === 'string' && /^\/(?!\/)/.test(search.redirect)
      ? { redirect: search.redirect }
      : {},
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
    const user = await ensureSession(context.queryClient);
    if (!user) throw redirect({ to: '/login', search: { redirect: location.href } });
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

const placeholder = () => import('@/features/system/placeholder-page');

const homeRoute = mainPage('/', ALL, () => import('@/features/home/home-page'));
const mainPages = [
  homeRoute,
  mainPage('/providers', BUILDERS, () => import('@/features/providers/providers-page')),
  mainPage('/knowledges', BUILDERS, placeholder),
  mainPage('/knowledges/collections/create', BUILDERS, placeholder),
  mainPage('/knowledges/collections/edit/$id', BUILDERS, placeholder),
  mainPage('/studio', BUILDERS, () => import('@/features/studio/studio-page')),
  mainPage('/studio/simple/$chatbotId', BUILDERS, () => import('@/features/studio/simple-chatbot-page')),
  mainPage('/studio/chatflow/$chatbotId', BUILDERS, () => import('@/features/flow-editor/chatflow-page')),
  mainPage('/studio/workflow/$chatbotId', BUILDERS, () => import('@/features/flow-editor/workflow-page')),
  mainPage('/analytics', ALL, placeholder),
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
