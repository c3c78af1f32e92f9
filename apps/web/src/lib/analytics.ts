import { api, tokens } from './api';

/**
 * Page views. Sent to the API's analytics endpoint; a failure is only logged to the console (spec
 * section 8), never shown to the user.
 */
export function trackPageView(name: string, path = window.location.pathname): void {
  if (!tokens.access()) return; // page views belong to a user; anonymous visits are not recorded
  api.post('/analytics/page-views', { name, path }).catch((error: unknown) => {
    console.warn('analytics tracking failed', error);
  });
}
