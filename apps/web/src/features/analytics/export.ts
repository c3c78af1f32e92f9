import type { LogExportFormat } from '@atelier/schemas/constants';
import { api, apiUrl, tokens } from '@/lib/api';
import { queryString, type LogFilters, type Scope } from './queries';

/** The file name the server gives (`content-disposition`), or one of our own. */
function fileName(res: Response, format: LogExportFormat): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `inference-logs.${format}`;
}

/**
 * Downloads the filtered logs. The export needs the bearer token, so it is fetched (refreshing the
 * token once on 401, as every call does) and handed to the browser as a file. Throws on failure.
 */
export async function downloadLogs(scope: Scope, filters: LogFilters, format: LogExportFormat) {
  const url = `${apiUrl}/analytics/logs/export?${queryString({ ...scope, ...filters, format })}`;
  const get = () => fetch(url, { headers: { authorization: `Bearer ${tokens.access() ?? ''}` } });
  let res = await get();
  if (res.status === 401) {
    await api.refresh();
    res = await get();
  }
  if (!res.ok) throw new Error(`export failed: ${res.status}`);
  const blob = await res.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName(res, format);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
