/**
 * Credentials written into a URL (`https://user:pass@host/`) are a secret like an API key: they are
 * taken out of the URL that is stored and shown, kept sealed apart, and put back only to call it.
 */
export function splitUserinfo(url: string): { url: string; userinfo: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, userinfo: null };
  }
  if (!parsed.username && !parsed.password) return { url, userinfo: null };
  const userinfo = `${parsed.username}:${parsed.password}`;
  parsed.username = '';
  parsed.password = '';
  const bare = parsed.toString();
  // URL.toString() adds "/" to a bare origin; keep the caller's form otherwise.
  return { url: url.endsWith('/') ? bare : bare.replace(/\/$/, ''), userinfo };
}

/** The URL with its credentials put back (as written: percent-encoded `user:password`). */
export function withUserinfo(url: string, userinfo: string | null): string {
  if (!userinfo) return url;
  const parsed = new URL(url);
  const [user = '', password = ''] = userinfo.split(/:(.*)/s);
  parsed.username = user;
  parsed.password = password;
  const full = parsed.toString();
  return url.endsWith('/') ? full : full.replace(/\/$/, '');
}

/** Whether two URLs share an origin (credentials belong to one origin). */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
