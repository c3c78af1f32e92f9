/**
 * Where the API lives, chosen from the page's host name (spec section 7): an explicit VITE_API_URL
 * wins; then the host table (VITE_API_HOSTS, JSON `{ "app.example.com": "https://api.example.com" }`,
 * one entry per brand and environment); otherwise the same host on port 5001.
 */
export function resolveApiUrl(
  location: { protocol: string; hostname: string },
  env: { VITE_API_URL?: string | undefined; VITE_API_HOSTS?: string | undefined },
): string {
  if (env.VITE_API_URL) return env.VITE_API_URL.replace(/\/$/, '');
  if (env.VITE_API_HOSTS) {
    try {
      const hosts = JSON.parse(env.VITE_API_HOSTS) as Record<string, string>;
      const mapped = hosts[location.hostname];
      if (mapped) return mapped.replace(/\/$/, '');
    } catch {
      console.error('VITE_API_HOSTS is not valid JSON; using the local API address');
    }
  }
  const protocol = location.protocol === 'https:' ? 'https:' : 'http:';
  return `${protocol}//${location.hostname || 'localhost'}:5001`;
}
