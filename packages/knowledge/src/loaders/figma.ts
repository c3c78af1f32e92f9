import { isNetError } from '@atelier/net';
import type { FlowDocument } from '@atelier/schemas';
import { fetchJson, type LoaderContext, LoaderError } from './http';

interface FigmaNode {
  id: string;
  name: string;
  type: string;
  visible?: boolean;
  characters?: string;
  componentId?: string;
  children?: FigmaNode[];
}
type Components = Record<string, { name: string; description?: string }>;
interface FileAnswer {
  name: string;
  document: FigmaNode;
  components?: Components;
}
interface NodesAnswer {
  name: string;
  nodes: Record<string, { document: FigmaNode; components?: Components } | null>;
}

export interface FigmaRequest {
  fileKey: string;
  nodeIds: string[];
  accessToken?: string | undefined;
  toolId?: string | undefined;
}

/** Shapes carry no words: left out of the text. */
const SHAPES = new Set([
  'RECTANGLE',
  'ELLIPSE',
  'VECTOR',
  'LINE',
  'STAR',
  'POLYGON',
  'BOOLEAN_OPERATION',
  'SLICE',
]);
const MAX_DEPTH = 50;

const label = (type: string) => type.charAt(0) + type.slice(1).toLowerCase().replace(/_/g, ' ');

/** A node and its visible descendants as indented lines: kinds, names, text and the components used. */
export function figmaText(root: FigmaNode, components: Components): string {
  const lines: string[] = [];
  const walk = (node: FigmaNode, depth: number) => {
    if (node.visible === false || SHAPES.has(node.type) || depth > MAX_DEPTH) return;
    const indent = '  '.repeat(depth);
    if (node.type === 'TEXT') {
      const text = (node.characters ?? '').trim();
      if (text) lines.push(`${indent}Text: ${text.replace(/\n/g, `\n${indent}  `)}`);
      return;
    }
    const component = node.componentId ? components[node.componentId] : undefined;
    if (node.type === 'INSTANCE')
      lines.push(`${indent}Instance of ${component?.name ?? 'a component'}: ${node.name}`);
    else lines.push(`${indent}${label(node.type)}: ${node.name}`);
    const description = node.type === 'COMPONENT' ? components[node.id]?.description : undefined;
    if (description) lines.push(`${indent}  Description: ${description}`);
    for (const child of node.children ?? []) walk(child, depth + 1);
  };
  walk(root, 0);
  return lines.join('\n');
}

/** A file key, or the key inside a Figma URL (figma.com/file/KEY/… or /design/KEY/…). */
export function figmaKey(text: string): string {
  const trimmed = text.trim();
  const key = /figma\.com\/(?:file|design|proto|board)\/([\w-]+)/.exec(trimmed)?.[1] ?? trimmed;
  if (!/^[\w-]{10,128}$/.test(key))
    throw new LoaderError(422, 'invalid_file_key', `"${text}" is not a Figma file key.`);
  return key;
}

async function figmaToken(ctx: LoaderContext, request: FigmaRequest): Promise<string> {
  if (request.accessToken?.trim()) return request.accessToken.trim();
  if (!request.toolId) {
    throw new LoaderError(
      422,
      'missing_token',
      'The Figma loader needs an access token or a configured Figma tool.',
    );
  }
  const tool = await ctx.resolveTool(request.toolId);
  if (!tool) throw new LoaderError(404, 'tool_not_found', 'The Figma tool of this loader no longer exists.');
  if (tool.type !== 'figma') {
    throw new LoaderError(
      422,
      'wrong_tool',
      `The tool of this loader is a ${tool.type} tool, not a Figma tool.`,
    );
  }
  if (!tool.secret) throw new LoaderError(422, 'missing_token', 'The Figma tool holds no access token.');
  return tool.secret;
}

function refused(status: number, key: string): LoaderError {
  if (status === 403 || status === 401)
    return new LoaderError(401, 'token_refused', 'The Figma access token was refused.');
  if (status === 404)
    return new LoaderError(
      404,
      'not_found',
      `The Figma file ${key} was not found, or the token cannot open it.`,
    );
  if (status === 429)
    return new LoaderError(429, 'rate_limited', 'Figma is limiting requests; try again later.');
  return new LoaderError(502, 'figma_failed', `Figma answered with status ${status}.`);
}

function nodeDocument(key: string, fileName: string, node: FigmaNode, components: Components, page?: string) {
  const metadata: Record<string, unknown> = {
    source: `https://www.figma.com/file/${key}?node-id=${encodeURIComponent(node.id)}`,
    title: node.name,
    file_key: key,
    file_name: fileName,
    node_id: node.id,
    node_type: node.type,
    ...(page ? { page } : {}),
  };
  return { pageContent: figmaText(node, components), metadata };
}

/**
 * The Figma loader: one document per top-level frame of every page (or per node asked for), its text
 * the node tree's kinds, names, text layers and component instances.
 */
export async function loadFigma(ctx: LoaderContext, request: FigmaRequest): Promise<FlowDocument[]> {
  const key = figmaKey(request.fileKey);
  const token = await figmaToken(ctx, request);
  const ids = request.nodeIds.map((id) => id.trim().replace(/-/g, ':')).filter(Boolean);
  const url = ids.length
    ? `${ctx.endpoints.figma}/v1/files/${key}/nodes?ids=${encodeURIComponent(ids.join(','))}`
    : `${ctx.endpoints.figma}/v1/files/${key}`;
  const call = <T>() =>
    fetchJson<T>(
      ctx,
      {
        method: 'GET',
        url,
        headers: { 'x-figma-token': token, accept: 'application/json' },
        secretHeaders: ['x-figma-token'],
      },
      (status) => refused(status, key),
    ).catch((error: unknown) => {
      if (isNetError(error) && error.code === 'response_too_large') {
        throw new LoaderError(
          413,
          'file_too_large',
          `${error.detail} Give node ids to load parts of the file.`,
        );
      }
      throw error;
    });

  if (ids.length) {
    const answer = await call<NodesAnswer>();
    const found = ids.flatMap((id) => (answer.nodes[id] ? [answer.nodes[id]] : []));
    if (found.length === 0) {
      throw new LoaderError(
        404,
        'not_found',
        `None of the node ids ${ids.join(', ')} are in the Figma file ${key}.`,
      );
    }
    return found.map((entry) => nodeDocument(key, answer.name, entry.document, entry.components ?? {}));
  }
  const file = await call<FileAnswer>();
  const components = file.components ?? {};
  return (file.document.children ?? []).flatMap((page) =>
    (page.children ?? [])
      .filter((frame) => frame.visible !== false && !SHAPES.has(frame.type))
      .map((frame) => nodeDocument(key, file.name, frame, components, page.name)),
  );
}
