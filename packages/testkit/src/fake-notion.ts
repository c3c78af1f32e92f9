import { randomUUID } from 'node:crypto';
import { type FakeServer, listen, sendJson, wait } from './fake-web';

/** A block to seed: `text` becomes its rich text (or a code block's, a to-do's…). */
export interface FakeNotionBlock {
  type: string;
  text?: string;
  checked?: boolean;
  language?: string;
  children?: FakeNotionBlock[];
}

/** A page of a database: `title` is its "Name" title property; other values become typed properties. */
export interface FakeNotionPage {
  title: string;
  /** string → rich_text, number → number, boolean → checkbox, string[] → multi_select. */
  properties?: Record<string, string | number | boolean | string[]>;
  blocks?: FakeNotionBlock[];
}

export interface FakeNotionOptions {
  token: string;
  /** Databases by id (32 hex digits, no dashes). */
  databases: Record<string, FakeNotionPage[]>;
  /** The most results one answer gives, whatever page_size asks (default 100, Notion's maximum). */
  pageSize?: number;
  /** Waits this long before every answer. */
  delayMs?: number;
  host?: string;
}

type Json = Record<string, unknown>;
const rich = (text: string) => [
  { type: 'text', text: { content: text, link: null }, plain_text: text, href: null },
];

function property(value: string | number | boolean | string[]): Json {
  if (Array.isArray(value))
    return { type: 'multi_select', multi_select: value.map((name) => ({ id: name, name })) };
  if (typeof value === 'number') return { type: 'number', number: value };
  if (typeof value === 'boolean') return { type: 'checkbox', checkbox: value };
  return { type: 'rich_text', rich_text: rich(value) };
}

const plainOf = (prop: Json): string =>
  ((prop[prop.type as string] ?? []) as { plain_text: string }[]).map((t) => t.plain_text).join('');

/** The filter subset the fake understands: and/or, checkbox, number, text contains, multi_select contains. */
function matches(page: Json, filter: Json): boolean {
  if (Array.isArray(filter.and)) return (filter.and as Json[]).every((f) => matches(page, f));
  if (Array.isArray(filter.or)) return (filter.or as Json[]).some((f) => matches(page, f));
  const prop = (page.properties as Record<string, Json>)[String(filter.property)];
  if (!prop) throw new Error(`Could not find property with name or id: ${String(filter.property)}`);
  const [kind, condition] = Object.entries(filter).find(([key]) => key !== 'property') as [string, Json];
  if (kind === 'checkbox') return prop.checkbox === condition.equals;
  if (kind === 'number') {
    const n = prop.number as number;
    return 'equals' in condition ? n === condition.equals : n > (condition.greater_than as number);
  }
  if (kind === 'rich_text' || kind === 'title') return plainOf(prop).includes(String(condition.contains));
  if (kind === 'multi_select') {
    return (prop.multi_select as { name: string }[]).some((option) => option.name === condition.contains);
  }
  throw new Error(`Unsupported filter type: ${kind}`);
}

export interface FakeNotion extends FakeServer {
  /** The block ids of every page, by page title (to check nested reads). */
  pageIds: Record<string, string>;
}

/**
 * Notion's REST API (version 2022-06-28) as the database loader uses it: POST
 * /v1/databases/{id}/query (filter, start_cursor, page_size) and GET /v1/blocks/{id}/children, with
 * Notion's pagination (`has_more`, `next_cursor`), Bearer authentication and error shape.
 */
export async function startFakeNotion(options: FakeNotionOptions): Promise<FakeNotion> {
  const children = new Map<string, Json[]>();
  const pageIds: Record<string, string> = {};
  const addBlocks = (parent: string, blocks: FakeNotionBlock[]) => {
    children.set(
      parent,
      blocks.map((block) => {
        const id = randomUUID();
        if (block.children?.length) addBlocks(id, block.children);
        const data: Json =
          block.type === 'divider'
            ? {}
            : block.type === 'child_page'
              ? { title: block.text ?? '' }
              : { rich_text: rich(block.text ?? ''), checked: block.checked, language: block.language };
        return {
          object: 'block',
          id,
          type: block.type,
          has_children: Boolean(block.children?.length),
          [block.type]: data,
        };
      }),
    );
  };
  const databases = new Map(
    Object.entries(options.databases).map(([dbId, pages]) => [
      dbId,
      pages.map((page) => {
        const id = randomUUID();
        pageIds[page.title] = id;
        addBlocks(id, page.blocks ?? []);
        const props = Object.fromEntries(
          Object.entries(page.properties ?? {}).map(([k, v]) => [k, property(v)]),
        );
        return {
          object: 'page',
          id,
          url: `https://www.notion.so/${page.title.replace(/\W+/g, '-')}-${id.replace(/-/g, '')}`,
          properties: { Name: { id: 'title', type: 'title', title: rich(page.title) }, ...props },
        } as Json;
      }),
    ]),
  );
  const error = (status: number, code: string, message: string) => ({
    object: 'error',
    status,
    code,
    message,
  });
  const slice = (items: Json[], cursor: unknown, size: unknown) => {
    const start = cursor ? Number(cursor) : 0;
    const count = Math.min(Number(size) || 100, options.pageSize ?? 100);
    const end = start + count;
    const more = end < items.length;
    return {
      object: 'list',
      results: items.slice(start, end),
      has_more: more,
      next_cursor: more ? String(end) : null,
    };
  };

  const server = await listen(async (req, res) => {
    if (options.delayMs) await wait(options.delayMs);
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return sendJson(res, 401, error(401, 'unauthorized', 'API token is invalid.'));
    }
    if (!req.headers['notion-version']) {
      return sendJson(res, 400, error(400, 'missing_version', 'Notion-Version header failed validation.'));
    }
    const url = new URL(req.path, 'http://notion');
    const query = /^\/v1\/databases\/([\w-]+)\/query$/.exec(url.pathname);
    if (query && req.method === 'POST') {
      const pages = databases.get(query[1]!.replace(/-/g, ''));
      if (!pages)
        return sendJson(
          res,
          404,
          error(404, 'object_not_found', `Could not find database with ID: ${query[1]}.`),
        );
      const body = (req.body ? JSON.parse(req.body) : {}) as Json;
      let kept: Json[];
      try {
        kept = body.filter ? pages.filter((page) => matches(page, body.filter as Json)) : pages;
      } catch (e) {
        return sendJson(res, 400, error(400, 'validation_error', (e as Error).message));
      }
      return sendJson(res, 200, slice(kept, body.start_cursor, body.page_size));
    }
    const blocks = /^\/v1\/blocks\/([\w-]+)\/children$/.exec(url.pathname);
    if (blocks && req.method === 'GET') {
      const list = children.get(blocks[1]!);
      if (!list)
        return sendJson(
          res,
          404,
          error(404, 'object_not_found', `Could not find block with ID: ${blocks[1]}.`),
        );
      return sendJson(
        res,
        200,
        slice(list, url.searchParams.get('start_cursor'), url.searchParams.get('page_size')),
      );
    }
    sendJson(res, 400, error(400, 'invalid_request_url', 'Invalid request URL.'));
  }, options.host);
  return { ...server, pageIds };
}
