import { type FakeServer, listen, sendJson, wait } from './fake-web';

/** A node of a Figma document tree (the fields the REST API gives that loaders read). */
export interface FakeFigmaNode {
  id: string;
  name: string;
  /** DOCUMENT, CANVAS, FRAME, GROUP, TEXT, COMPONENT, INSTANCE, RECTANGLE… */
  type: string;
  characters?: string;
  componentId?: string;
  visible?: boolean;
  children?: FakeFigmaNode[];
}

export interface FakeFigmaFile {
  name: string;
  /** The DOCUMENT node; its children are the pages (CANVAS). */
  document: FakeFigmaNode;
  components?: Record<string, { key?: string; name: string; description?: string }>;
}

export interface FakeFigmaOptions {
  token: string;
  files: Record<string, FakeFigmaFile>;
  delayMs?: number;
  host?: string;
}

function find(node: FakeFigmaNode, id: string): FakeFigmaNode | null {
  if (node.id === id) return node;
  for (const child of node.children ?? []) {
    const found = find(child, id);
    if (found) return found;
  }
  return null;
}

/**
 * Figma's REST API as the loader uses it: GET /v1/files/{key} and GET /v1/files/{key}/nodes?ids=…
 * (unknown ids answer null), authenticated by the X-Figma-Token header (403 otherwise, as Figma does).
 */
export async function startFakeFigma(options: FakeFigmaOptions): Promise<FakeServer> {
  return listen(async (req, res) => {
    if (options.delayMs) await wait(options.delayMs);
    if (req.headers['x-figma-token'] !== options.token)
      return sendJson(res, 403, { status: 403, err: 'Invalid token' });
    const url = new URL(req.path, 'http://figma');
    const match = /^\/v1\/files\/([\w-]+)(\/nodes)?$/.exec(url.pathname);
    const file = match ? options.files[match[1]!] : undefined;
    if (!match || !file || req.method !== 'GET') return sendJson(res, 404, { status: 404, err: 'Not found' });
    const meta = { name: file.name, lastModified: '2026-01-01T00:00:00Z', version: '1', role: 'viewer' };
    if (!match[2]) {
      return sendJson(res, 200, {
        ...meta,
        document: file.document,
        components: file.components ?? {},
        schemaVersion: 0,
      });
    }
    const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0) return sendJson(res, 400, { status: 400, err: 'Missing ids' });
    const nodes = Object.fromEntries(
      ids.map((id) => {
        const node = find(file.document, id);
        return [id, node ? { document: node, components: file.components ?? {} } : null];
      }),
    );
    sendJson(res, 200, { ...meta, nodes });
  }, options.host);
}
