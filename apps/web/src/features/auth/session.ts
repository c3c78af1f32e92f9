import type { User } from '@atelier/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { api, tokens } from '@/lib/api';
import { TOKEN_REFRESH_FAIL, TOKEN_REFRESHED } from '@/lib/api-client';
import { useAppStore } from '@/stores/app-store';

export const meQueryKey = ['users', 'me'] as const;

export const fetchMe = async () => (await api.get<{ user: User }>('/users/details/me')).user;

/**
 * The session: authenticated once the user's details are fetched. Without tokens there is no
 * session; a failed fetch (the client already tried a refresh) ends it.
 */
export async function ensureSession(queryClient: QueryClient): Promise<User | null> {
  if (!tokens.access() && !tokens.refresh()) {
    useAppStore.getState().reset();
    return null;
  }
  try {
    const user = await queryClient.ensureQueryData({
      queryKey: meQueryKey,
      queryFn: fetchMe,
      staleTime: Infinity,
    });
    if (useAppStore.getState().user?.id !== user.id || useAppStore.getState().user !== user) {
      useAppStore.getState().setUser(user);
    }
    return user;
  } catch {
    tokens.clear();
    useAppStore.getState().reset();
    queryClient.removeQueries({ queryKey: meQueryKey });
    return null;
  }
}

/** Credentials set (login, onboarding): store the tokens and fetch who we are. */
export async function startSession(
  queryClient: QueryClient,
  pair: { access_token: string; refresh_token: string },
): Promise<User> {
  tokens.set(pair);
  queryClient.removeQueries({ queryKey: meQueryKey });
  const user = await queryClient.fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: Infinity });
  useAppStore.getState().setUser(user);
  return user;
}

export async function endSession(queryClient: QueryClient): Promise<void> {
  const refreshToken = tokens.refresh();
  tokens.clear();
  useAppStore.getState().reset();
  queryClient.clear();
  if (refreshToken) {
    await api.post('/token/revoke', { refresh_token: refreshToken }, { auth: false }).catch(() => undefined);
  }
}

/** A token-refreshed event re-fetches the user's details; a failed refresh ends the session. */
export function watchSessionEvents(queryClient: QueryClient) {
  window.addEventListener(TOKEN_REFRESHED, () => {
    void queryClient
      .fetchQuery({ queryKey: meQueryKey, queryFn: fetchMe, staleTime: 0 })
      .then((user) => useAppStore.getState().setUser(user))
      .catch(() => undefined);
  });
  window.addEventListener(TOKEN_REFRESH_FAIL, () => {
    useAppStore.getState().reset();
    queryClient.clear();
  });
}
