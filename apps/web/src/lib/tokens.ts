/** Session tokens, kept in local storage as the spec says. */
export interface TokenStore {
  access(): string | null;
  refresh(): string | null;
  set(tokens: { access_token: string; refresh_token: string }): void;
  clear(): void;
}

const ACCESS = 'access_token';
const REFRESH = 'refresh_token';

export function localTokenStore(storage: Storage = localStorage): TokenStore {
  return {
    access: () => storage.getItem(ACCESS),
    refresh: () => storage.getItem(REFRESH),
    set: (tokens) => {
      storage.setItem(ACCESS, tokens.access_token);
      storage.setItem(REFRESH, tokens.refresh_token);
    },
    clear: () => {
      storage.removeItem(ACCESS);
      storage.removeItem(REFRESH);
    },
  };
}
