import type { FlowDocument } from '@atelier/schemas';
import { fetchJson, type LoaderContext, LoaderError, mapLimit } from './http';

const VERSION = '2022-06-28';

type RichText = { plain_text?: string }[];
interface NotionBlock {
  id: string;
  type: string;
  has_children?: boolean;
  [type: string]: unknown;
}
interface NotionPage {
  id: string;
  url?: string;
  properties?: Record<string, { type: string; [key: string]: unknown }>;
}
interface Listing<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface NotionRequest {
  integrationToken: string;
  databaseId: string;
  filter: Record<string, unknown>;
  timeoutMs: number;
}

/** A database id as Notion shows it: 32 hex digits, with or without dashes, or a database URL. */
export function notionId(text: string): string {
  const path = text.trim().split(/[?#]/)[0]!.replace(/-/g, '');
  const hex = /([0-9a-f]{32})$/i.exec(path)?.[1];
  if (!hex) throw new LoaderError(422, 'invalid_database_id', `"${text}" is not a Notion database id.`);
  return hex.toLowerCase();
}

function refused(status: number, text: string, what: string): LoaderError {
  let message = '';
  try {
    message = String((JSON.parse(text) as { message?: unknown }).message ?? '');
  } catch {
    message = text.slice(0, 200);
  }
  if (status === 401)
    return new LoaderError(401, 'token_refused', 'The Notion integration token was refused.');
  if (status === 404 || status === 403) {
    return new LoaderError(
      404,
      'not_found',
      `Notion could not find ${what}: check the id and that the database is shared with the integration.`,
    );
  }
  if (status === 429)
    return new LoaderError(429, 'rate_limited', 'Notion is limiting requests; try again later.');
  if (status === 400) return new LoaderError(422, 'notion_refused', `Notion refused the request: ${message}`);
  return new LoaderError(
    502,
    'notion_failed',
    `Notion answered with status ${status}${message ? `: ${message}` : ''}.`,
  );
}

const plain = (rich: unknown) => ((rich ?? []) as RichText).map((part) => part.plain_text ?? '').join('');

/** A property's value as plain JSON (names of selects and people, ids of relations, text of rich text). */
function propertyValue(prop: { type: string; [key: string]: unknown }): unknown {
  const value = prop[prop.type] as Record<string, unknown> | unknown[] | string | number | boolean | null;
  switch (prop.type) {
    case 'title':
    case 'rich_text':
      return plain(value);
    case 'select':
    case 'status':
      return (value as { name?: string } | null)?.name ?? null;
    case 'multi_select':
      return ((value ?? []) as { name: string }[]).map((option) => option.name);
    case 'people':
      return ((value ?? []) as { id: string; name?: string }[]).map((person) => person.name ?? person.id);
    case 'relation':
      return ((value ?? []) as { id: string }[]).map((page) => page.id);
    case 'files':
      return ((value ?? []) as { name: string }[]).map((file) => file.name);
    case 'date': {
      const date = value as { start: string; end: string | null } | null;
      return date ? (date.end ? `${date.start} → ${date.end}` : date.start) : null;
    }
    case 'formula': {
      const formula = value as { type: string; [key: string]: unknown };
      return formula[formula.type] ?? null;
    }
    case 'unique_id': {
      const id = value as { prefix: string | null; number: number };
      return id.prefix ? `${id.prefix}-${id.number}` : id.number;
    }
    case 'created_by':
    case 'last_edited_by':
      return (value as { id: string; name?: string }).name ?? (value as { id: string }).id;
    case 'rollup': {
      const rollup = value as { type: string; [key: string]: unknown };
      const inner = rollup[rollup.type];
      return Array.isArray(inner) ? inner.map((item) => propertyValue(item as NotionBlock)) : (inner ?? null);
    }
    default:
      return value ?? null;
  }
}

const PREFIX: Record<string, string> = {
  heading_1: '# ',
  heading_2: '## ',
  heading_3: '### ',
  bulleted_list_item: '- ',
  numbered_list_item: '1. ',
  quote: '> ',
};

/** One block as a line of text ('' for blocks without text: images, dividers, unsupported ones). */
function blockLine(block: NotionBlock): string {
  const data = (block[block.type] ?? {}) as Record<string, unknown>;
  switch (block.type) {
    case 'to_do':
      return `[${data.checked ? 'x' : ' '}] ${plain(data.rich_text)}`;
    case 'code':
      return `\`\`\`${String(data.language ?? '')}\n${plain(data.rich_text)}\n\`\`\``;
    case 'equation':
      return String(data.expression ?? '');
    case 'child_page':
    case 'child_database':
      return String(data.title ?? '');
    case 'table_row':
      return ((data.cells ?? []) as unknown[]).map(plain).join(' | ');
    case 'bookmark':
    case 'embed':
    case 'link_preview':
      return [plain(data.caption), String(data.url ?? '')].filter(Boolean).join(' ');
    default:
      return 'rich_text' in data ? `${PREFIX[block.type] ?? ''}${plain(data.rich_text)}` : '';
  }
}

/** Every page of a listing (Notion pages answers with `has_more` and `next_cursor`). */
async function listAll<T>(fetchPage: (cursor: string | undefined) => Promise<Listing<T>>, cap: number) {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    all.push(...page.results);
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor && all.length < cap);
  return all.slice(0, cap);
}

/**
 * The Notion database loader: the database's pages (query filter, paginated), each page's blocks
 * (nested ones indented, up to `blockDepth`) as its text and its properties as metadata.
 */
export async function loadNotion(ctx: LoaderContext, request: NotionRequest): Promise<FlowDocument[]> {
  const token = request.integrationToken.trim();
  if (!token) throw new LoaderError(422, 'missing_token', 'The Notion loader needs an integration token.');
  const databaseId = notionId(request.databaseId);
  const headers = {
    authorization: `Bearer ${token}`,
    'notion-version': VERSION,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const api = ctx.endpoints.notion;
  const timeoutMs = Math.max(1, request.timeoutMs);
  const filter = Object.keys(request.filter ?? {}).length > 0 ? { filter: request.filter } : {};
  const pages = await listAll<NotionPage>(
    (cursor) =>
      fetchJson(
        ctx,
        {
          method: 'POST',
          url: `${api}/v1/databases/${databaseId}/query`,
          headers,
          body: JSON.stringify({ ...filter, page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) }),
          timeoutMs,
        },
        (status, text) => refused(status, text, `the database ${databaseId}`),
      ),
    ctx.limits.notionPages,
  );

  const blocksText = async (id: string, depth: number): Promise<string[]> => {
    const blocks = await listAll<NotionBlock>((cursor) => {
      const query = `page_size=100${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ''}`;
      return fetchJson(
        ctx,
        { method: 'GET', url: `${api}/v1/blocks/${id}/children?${query}`, headers, timeoutMs },
        (status, text) => refused(status, text, `the block ${id}`),
      );
    }, 10_000);
    const lines: string[] = [];
    for (const block of blocks) {
      const line = blockLine(block);
      if (line) lines.push(`${'  '.repeat(depth)}${line}`);
      const nested = block.type !== 'child_page' && block.type !== 'child_database';
      if (block.has_children && nested && depth < ctx.limits.blockDepth) {
        lines.push(...(await blocksText(block.id, depth + 1)));
      }
    }
    return lines;
  };

  return mapLimit(pages, Math.min(ctx.limits.concurrency, 3), async (page) => {
    const properties = Object.fromEntries(
      Object.entries(page.properties ?? {}).map(([name, prop]) => [name, propertyValue(prop)]),
    );
    const titleProp = Object.entries(page.properties ?? {}).find(([, prop]) => prop.type === 'title');
    const title = titleProp ? String(properties[titleProp[0]] ?? '') : '';
    const lines = await blocksText(page.id, 0);
    return {
      pageContent: lines.join('\n'),
      metadata: {
        ...properties,
        id: page.id,
        source: page.url ?? `https://www.notion.so/${page.id.replace(/-/g, '')}`,
        title,
      },
    };
  });
}
