/** A file size for people: 512 B, 12.3 KB, 100 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / 1024 / 1024, 'MB'];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}

/** A retrieval score with two decimals. */
export const formatScore = (score: number) => score.toFixed(2);

/**
 * A web page's address as a list shows it: its path (`/help/returns`, the site's address for its home
 * page) and its site apart, so that pages of one site stay told apart on a narrow screen.
 */
export function webPageLabel(address: string): { name: string; site: string } {
  try {
    const url = new URL(address);
    let path = `${url.pathname}${url.search}`;
    try {
      path = decodeURI(path);
    } catch {
      // Kept as written when it is not valid percent-encoding.
    }
    return { name: path === '/' ? url.host : path, site: url.host };
  } catch {
    return { name: address, site: '' };
  }
}
