import { resolveApiUrl } from './api-host';
import { createApiClient } from './api-client';
import { localTokenStore } from './tokens';

export const apiUrl = resolveApiUrl(window.location, import.meta.env);
export const tokens = localTokenStore();

let authLostHandler: () => void = () => window.location.assign('/login');
/** The router installs its navigation here, so a lost session goes to /login without a reload. */
export function onAuthLost(handler: () => void) {
  authLostHandler = handler;
}

export const api = createApiClient({ baseUrl: apiUrl, tokens, onAuthLost: () => authLostHandler() });
