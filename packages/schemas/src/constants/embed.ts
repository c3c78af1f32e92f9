/** What an embed token starts with (public by design: it sits in the pages that embed the chat). */
export const EMBED_TOKEN_PREFIX = 'emb_';
/** Sites one chatbot may be embedded on. */
export const MAX_EMBED_ORIGINS = 20;

/** Whether a text is exactly an origin (scheme, host, optional port): no path, query or trailing slash. */
export function isExactOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}
