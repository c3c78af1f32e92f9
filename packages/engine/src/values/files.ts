import type { FileValue } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import type { EngineServices } from '../services';

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A data: URL's media type and bytes. */
export function decodeDataUrl(url: string): { mimeType: string; data: Uint8Array } {
  const m = DATA_URL.exec(url);
  if (!m) throw new NodeInputError('Not a data: URL.');
  const params = m[2] ?? '';
  const payload = m[3] ?? '';
  const data = params.includes(';base64')
    ? Buffer.from(payload, 'base64')
    : Buffer.from(decodeURIComponent(payload), 'utf8');
  return { mimeType: m[1] || 'text/plain', data: new Uint8Array(data) };
}

export const encodeDataUrl = (mimeType: string, data: Uint8Array): string =>
  `data:${mimeType};base64,${Buffer.from(data).toString('base64')}`;

export const mimeOfDataUrl = (url: string): string => DATA_URL.exec(url)?.[1] ?? '';

export const isHttpUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** A file value from a FileValue-like object or a data:/http(s) URL string; null when it is neither. */
export function toFileValue(value: unknown, fallbackName = 'file'): FileValue | null {
  if (typeof value === 'string') {
    const s = value.trim();
    if (s.startsWith('data:')) {
      const mimeType = mimeOfDataUrl(s);
      if (!DATA_URL.test(s)) return null;
      return { name: fallbackName, mimeType, dataUrl: s };
    }
    if (isHttpUrl(s))
      return { name: s.split('/').pop()?.split('?')[0] || fallbackName, mimeType: '', url: s };
    return null;
  }
  if (!isRecord(value)) return null;
  const dataUrl = typeof value.dataUrl === 'string' ? value.dataUrl : undefined;
  const url = typeof value.url === 'string' ? value.url : undefined;
  if (!dataUrl && !url) return null;
  const name = typeof value.name === 'string' && value.name ? value.name : fallbackName;
  const mimeType =
    typeof value.mimeType === 'string' && value.mimeType
      ? value.mimeType
      : dataUrl
        ? mimeOfDataUrl(dataUrl)
        : '';
  return {
    name,
    mimeType,
    ...(dataUrl ? { dataUrl } : {}),
    ...(url ? { url } : {}),
    ...(typeof value.size === 'number' ? { size: value.size } : {}),
  };
}

/** Where a model can read the file: its data: URL, else its http(s) URL. */
export const fileLocation = (file: FileValue): string => file.dataUrl ?? file.url ?? '';

/** A file's bytes: decoded from its data: URL, or fetched (through the host's guarded HTTP client). */
export async function fileBytes(
  file: FileValue,
  services: EngineServices,
  signal: AbortSignal,
): Promise<{ data: Uint8Array; mimeType: string }> {
  if (file.dataUrl) {
    const decoded = decodeDataUrl(file.dataUrl);
    return { data: decoded.data, mimeType: file.mimeType || decoded.mimeType };
  }
  if (!file.url || !isHttpUrl(file.url)) throw new NodeInputError(`The file ${file.name} has no content.`);
  const response = await services.http({
    method: 'GET',
    url: file.url,
    headers: {},
    timeoutMs: 60_000,
    signal,
  });
  if (response.status >= 400) {
    throw new Error(`Fetching ${file.url} answered ${response.status}.`);
  }
  return { data: response.body, mimeType: file.mimeType || response.headers['content-type'] || '' };
}

export const fileFromBytes = (name: string, mimeType: string, data: Uint8Array): FileValue => ({
  name,
  mimeType,
  dataUrl: encodeDataUrl(mimeType, data),
  size: data.byteLength,
});

export const extensionOf = (name: string): string => {
  const clean = name.split('?')[0] ?? name;
  const dot = clean.lastIndexOf('.');
  return dot >= 0 ? clean.slice(dot + 1).toLowerCase() : '';
};
