/** An image or a sound found in a node's outputs or parameters, safe to put in `src`. */
export interface Media {
  kind: 'image' | 'audio';
  src: string;
  /** Where it was found (`image`, `images.1`), or the file's name. */
  label: string;
}

const HTTP = /^https?:\/\//i;
const IMAGE_EXT = /\.(png|jpe?g|gif|webp|avif|bmp|svg)(\?|#|$)/i;
const AUDIO_EXT = /\.(mp3|m4a|wav|ogg|oga|webm|aac|flac|mpeg)(\?|#|$)/i;
const IMAGE_KEY = /image|img|picture|photo/i;
const AUDIO_KEY = /audio|speech|sound|voice/i;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Only data:image/… and http(s) URLs may become an image's source; nothing else (no javascript:, blob:). */
export function imageSrc(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  return s.startsWith('data:image/') || HTTP.test(s) ? s : null;
}

export function audioSrc(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  return s.startsWith('data:audio/') || HTTP.test(s) ? s : null;
}

/**
 * What a value shows as: a data: URL by its type; an http(s) URL by its extension or, failing that,
 * by the name of the field holding it (`image_url`); a file value (`{name, mimeType, dataUrl|url}`)
 * by its mime type.
 */
export function mediaOf(value: unknown, key = ''): Omit<Media, 'label'> | null {
  if (typeof value === 'string') {
    const s = value.trim();
    if (s.startsWith('data:image/')) return { kind: 'image', src: s };
    if (s.startsWith('data:audio/')) return { kind: 'audio', src: s };
    if (!HTTP.test(s)) return null;
    if (IMAGE_EXT.test(s) || (!AUDIO_EXT.test(s) && IMAGE_KEY.test(key))) return { kind: 'image', src: s };
    if (AUDIO_EXT.test(s) || AUDIO_KEY.test(key)) return { kind: 'audio', src: s };
    return null;
  }
  if (!isRecord(value) || typeof value.mimeType !== 'string') return null;
  const location = typeof value.dataUrl === 'string' ? value.dataUrl : value.url;
  if (value.mimeType.startsWith('image/')) {
    const src = imageSrc(location);
    return src ? { kind: 'image', src } : null;
  }
  if (value.mimeType.startsWith('audio/')) {
    const src = audioSrc(location);
    return src ? { kind: 'audio', src } : null;
  }
  return null;
}

const MAX_DEPTH = 5;
const MAX_MEDIA = 24;

/** Every image and sound in a value (outputs, parameters), depth-first, with where it was found. */
export function findMedia(value: unknown, path = '', out: Media[] = [], depth = 0): Media[] {
  if (out.length >= MAX_MEDIA || depth > MAX_DEPTH) return out;
  const key =
    path
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? '';
  const found = mediaOf(value, key);
  if (found) {
    const name = isRecord(value) && typeof value.name === 'string' && value.name ? value.name : path;
    out.push({ ...found, label: name || found.kind });
    return out;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => findMedia(item, path ? `${path}.${i}` : String(i), out, depth + 1));
  } else if (isRecord(value)) {
    for (const [k, item] of Object.entries(value)) findMedia(item, path ? `${path}.${k}` : k, out, depth + 1);
  }
  return out;
}

/** Long strings (data: URLs above all) shortened for the JSON view, with their size. */
export function previewString(value: string, limit = 160): string {
  if (value.length <= limit) return value;
  const kb = Math.round(value.length / 1024);
  const head = value.startsWith('data:')
    ? value.slice(0, value.indexOf(',') + 1 || 40)
    : value.slice(0, limit);
  return `${head}… (${kb > 0 ? `${kb} kB` : `${value.length} chars`})`;
}
