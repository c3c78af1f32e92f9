/**
 * Where to go back to after signing in: a path of this app (`/studio?tab=x#y`), or undefined. Anything
 * that could leave the site is refused: other origins, `//host` and `/\host` (which browsers read as
 * another host), schemes; so are the sign-in and sign-out pages themselves.
 */
export function safeRedirect(value: unknown, origin: string): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return undefined;
  if (value.startsWith('//') || value.includes('\\')) return undefined;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(origin).origin) return undefined;
  if (/^\/(login|logout)(\/|$)/.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
