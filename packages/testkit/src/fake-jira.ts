import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An Atlassian Document Format node, as Jira Cloud's REST API v3 sends and expects rich text. */
export interface AdfNode {
  type: string;
  version?: number;
  text?: string;
  content?: AdfNode[];
  [key: string]: unknown;
}

export interface FakeJiraComment {
  id: string;
  author: string;
  /** ADF, as it was posted. */
  body: AdfNode;
  created: string;
}

/** One issue of the fake Jira, as a test may read or seed it. */
export interface FakeJiraIssue {
  id: string;
  key: string;
  project: string;
  summary: string;
  /** ADF, or null when the issue has no description. */
  description: AdfNode | null;
  status: string;
  issueType: string;
  priority: string | null;
  assignee: string | null;
  /** Jira's timestamp format, e.g. 2025-01-02T10:00:00.000+0000. */
  created: string;
  updated: string;
  comments: FakeJiraComment[];
}

/** An issue to start with: text is turned into ADF; the rest has Jira's defaults. */
export interface FakeJiraSeed {
  key: string;
  summary: string;
  description?: string;
  status?: string;
  issueType?: string;
  priority?: string | null;
  assignee?: string | null;
  comments?: { author: string; body: string }[];
}

export interface FakeJiraOptions {
  email: string;
  apiToken: string;
  /** Projects that exist; the projects of the seeded issues always do. Default ['OPS']. */
  projects?: string[];
  issues?: FakeJiraSeed[];
  /** The display name of the account that authenticates (authors of new comments). Default 'Atelier Bot'. */
  displayName?: string;
  /** Default '127.0.0.1'. */
  host?: string;
}

export interface FakeJiraRequest {
  method: string;
  /** Path with its query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
}

export interface FakeJira {
  /** The site URL, e.g. http://127.0.0.1:PORT (what would be https://acme.atlassian.net). */
  url: string;
  /** Every issue, in creation order; tests may read them after a run. */
  issues: FakeJiraIssue[];
  /** Every request received, in arrival order (rejected ones too). */
  requests: FakeJiraRequest[];
  close(): Promise<void>;
}

const ISSUE_TYPES = ['Task', 'Bug', 'Story', 'Epic'];
const PRIORITY_IDS: Record<string, string> = { Highest: '1', High: '2', Medium: '3', Low: '4', Lowest: '5' };
const NAVIGABLE = ['summary', 'status', 'issuetype', 'priority', 'assignee', 'created', 'updated', 'project'];
const DEFAULT_MAX_RESULTS = 50;
const MAX_RESULTS_CAP = 100;

/** Thrown by handlers; rendered in Jira's error shape `{ errorMessages, errors }`. */
class JiraError extends Error {
  constructor(
    readonly status: number,
    readonly errorMessages: string[],
    readonly errors: Record<string, string> = {},
  ) {
    super(errorMessages.join(' ') || Object.values(errors).join(' '));
  }
}

const badRequest = (message: string) => new JiraError(400, [message]);
const fieldErrors = (errors: Record<string, string>) => new JiraError(400, [], errors);
const noIssue = () => new JiraError(404, ['Issue does not exist or you do not have permission to see it.']);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Jira's timestamp: milliseconds and a numeric offset without a colon. */
const jiraTime = (date: Date) => date.toISOString().replace('Z', '+0000');

export const adfText = (text: string): AdfNode => ({
  type: 'doc',
  version: 1,
  content: text.split('\n').map((line) => ({
    type: 'paragraph',
    content: line === '' ? [] : [{ type: 'text', text: line }],
  })),
});

/** The plain text of an ADF document: paragraphs on their own lines. */
export function textOfAdf(node: AdfNode | null | undefined): string {
  if (!node) return '';
  if (typeof node.text === 'string') return node.text;
  const parts = (node.content ?? []).map(textOfAdf);
  return parts.join(node.type === 'doc' ? '\n' : '');
}

/** Jira v3 refuses plain strings where rich text goes: it must be an ADF `doc`. */
function requireAdf(value: unknown, field: string): AdfNode {
  if (!isRecord(value) || value.type !== 'doc' || value.version !== 1 || !Array.isArray(value.content)) {
    throw fieldErrors({
      [field]: 'Operation value must be an Atlassian Document (see the Atlassian Document Format)',
    });
  }
  return value as AdfNode;
}

// ---- JQL: the small subset the tests need --------------------------------------------------------

type Clause = { field: string; op: '=' | '!=' | '~'; value: string };
interface Query {
  clauses: Clause[];
  order: { field: string; desc: boolean } | null;
}

const CLAUSE = /^([A-Za-z]+)\s*(!=|=|~)\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))$/;
const SEARCHABLE: Record<string, Clause['op'][]> = {
  project: ['=', '!='],
  key: ['=', '!='],
  status: ['=', '!='],
  issuetype: ['=', '!='],
  text: ['~'],
  summary: ['~'],
};
const ORDERABLE = ['key', 'created', 'updated', 'summary'];

/**
 * `project = KEY`, `text ~ "word"`, `summary ~ …`, `status = …`, `issuetype = …`, `key = …`, joined by
 * AND, with an optional `ORDER BY field [ASC|DESC]`. Anything else is answered like Jira: 400.
 */
export function parseJql(jql: string): Query {
  let rest = jql.trim();
  let order: Query['order'] = null;
  const orderMatch = /\s*\bORDER\s+BY\s+([A-Za-z]+)(?:\s+(ASC|DESC))?\s*$/i.exec(rest);
  if (orderMatch) {
    const field = orderMatch[1]!.toLowerCase();
    if (!ORDERABLE.includes(field)) throw badRequest(`Not able to sort using field '${orderMatch[1]}'.`);
    order = { field, desc: (orderMatch[2] ?? 'ASC').toUpperCase() === 'DESC' };
    rest = rest.slice(0, orderMatch.index).trim();
  }
  if (rest === '') return { clauses: [], order };
  if (/\s(OR|NOT)\s|^NOT\s|[()]/i.test(rest)) {
    throw badRequest(`Error in the JQL Query: the fake Jira only understands clauses joined by AND.`);
  }
  const clauses = rest.split(/\s+AND\s+/i).map((part): Clause => {
    const m = CLAUSE.exec(part.trim());
    if (!m) throw badRequest(`Error in the JQL Query: cannot read '${part.trim()}'.`);
    const field = m[1]!.toLowerCase();
    const op = m[2] as Clause['op'];
    const ops = SEARCHABLE[field];
    if (!ops) throw badRequest(`Field '${m[1]}' does not exist or you do not have permission to view it.`);
    if (!ops.includes(op)) {
      throw badRequest(`The operator '${op}' is not supported by the '${m[1]}' field.`);
    }
    return { field, op, value: m[3] ?? m[4] ?? m[5] ?? '' };
  });
  return { clauses, order };
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function matches(issue: FakeJiraIssue, clause: Clause): boolean {
  const value = clause.value.toLowerCase();
  const equal = (actual: string) => (actual.toLowerCase() === value) === (clause.op === '=');
  switch (clause.field) {
    case 'project':
      return equal(issue.project);
    case 'key':
      return equal(issue.key);
    case 'status':
      return equal(issue.status);
    case 'issuetype':
      return equal(issue.issueType);
    case 'summary':
    case 'text': {
      const haystack =
        clause.field === 'summary'
          ? issue.summary
          : [
              issue.summary,
              textOfAdf(issue.description),
              ...issue.comments.map((c) => textOfAdf(c.body)),
            ].join(' ');
      const have = new Set(words(haystack));
      // Every word must occur (Jira also stems; prefixes stand in for that here).
      return words(value).every((w) => have.has(w) || [...have].some((h) => h.startsWith(w)));
    }
    default:
      return false;
  }
}

// ---- The server ----------------------------------------------------------------------------------

/**
 * A local Jira Cloud speaking the REST API v3 paths the jira_tools node uses: search (POST
 * /rest/api/3/search/jql), read, create and comment on issues, with basic authentication (account email
 * and API token) and Jira's error shapes.
 */
export async function startFakeJira(options: FakeJiraOptions): Promise<FakeJira> {
  const host = options.host ?? '127.0.0.1';
  const displayName = options.displayName ?? 'Atelier Bot';
  const expectedAuth = `Basic ${Buffer.from(`${options.email}:${options.apiToken}`).toString('base64')}`;
  const issues: FakeJiraIssue[] = [];
  const requests: FakeJiraRequest[] = [];
  const projects = new Set((options.projects ?? ['OPS']).map((p) => p.toUpperCase()));
  let nextId = 10_000;
  let nextCommentId = 50_000;
  let clock = Date.parse('2025-01-01T09:00:00.000Z');
  // Strictly increasing times, so ordering by created or updated is deterministic.
  const now = () => jiraTime(new Date((clock += 60_000)));
  let baseUrl = '';

  const projectOf = (key: string) => key.slice(0, key.lastIndexOf('-')).toUpperCase();
  const nextKey = (project: string) => {
    const numbers = issues.filter((i) => i.project === project).map((i) => Number(i.key.split('-').pop()));
    return `${project}-${Math.max(0, ...numbers) + 1}`;
  };

  for (const seed of options.issues ?? []) {
    const project = projectOf(seed.key);
    projects.add(project);
    const created = now();
    issues.push({
      id: String(nextId++),
      key: seed.key.toUpperCase(),
      project,
      summary: seed.summary,
      description: seed.description ? adfText(seed.description) : null,
      status: seed.status ?? 'To Do',
      issueType: seed.issueType ?? 'Task',
      priority: seed.priority === undefined ? 'Medium' : seed.priority,
      assignee: seed.assignee ?? null,
      created,
      updated: created,
      comments: (seed.comments ?? []).map((c) => ({
        id: String(nextCommentId++),
        author: c.author,
        body: adfText(c.body),
        created,
      })),
    });
  }

  const findIssue = (keyOrId: string): FakeJiraIssue => {
    const wanted = decodeURIComponent(keyOrId).toUpperCase();
    const issue = issues.find((i) => i.key === wanted || i.id === wanted);
    if (!issue) throw noIssue();
    return issue;
  };

  const user = (name: string) => ({
    accountId: `acc-${Buffer.from(name).toString('hex').slice(0, 12)}`,
    displayName: name,
    active: true,
  });

  const commentJson = (issue: FakeJiraIssue, c: FakeJiraComment) => ({
    self: `${baseUrl}/rest/api/3/issue/${issue.id}/comment/${c.id}`,
    id: c.id,
    author: user(c.author),
    body: c.body,
    created: c.created,
    updated: c.created,
  });

  function fieldValue(issue: FakeJiraIssue, field: string): unknown {
    switch (field) {
      case 'summary':
        return issue.summary;
      case 'status':
        return { name: issue.status, statusCategory: { key: issue.status === 'Done' ? 'done' : 'new' } };
      case 'issuetype':
        return { name: issue.issueType, subtask: false };
      case 'priority':
        return issue.priority ? { name: issue.priority, id: PRIORITY_IDS[issue.priority] ?? '3' } : null;
      case 'assignee':
        return issue.assignee ? user(issue.assignee) : null;
      case 'created':
        return issue.created;
      case 'updated':
        return issue.updated;
      case 'project':
        return { key: issue.project, name: issue.project };
      case 'description':
        return issue.description;
      case 'comment':
        return {
          comments: issue.comments.map((c) => commentJson(issue, c)),
          maxResults: issue.comments.length,
          total: issue.comments.length,
          startAt: 0,
        };
      default:
        return undefined;
    }
  }

  /** Only the fields asked for, like Jira; `*all` and `*navigable` stand for every field. */
  function issueJson(issue: FakeJiraIssue, fields: string[]) {
    const wanted = fields.some((f) => f === '*all' || f === '*navigable')
      ? [...NAVIGABLE, ...(fields.includes('*all') ? ['description', 'comment'] : [])]
      : fields;
    const out: Record<string, unknown> = {};
    for (const field of wanted) {
      const value = fieldValue(issue, field);
      if (value !== undefined) out[field] = value;
    }
    return {
      expand: '',
      id: issue.id,
      self: `${baseUrl}/rest/api/3/issue/${issue.id}`,
      key: issue.key,
      fields: out,
    };
  }

  const fieldList = (value: unknown): string[] =>
    Array.isArray(value)
      ? value.map(String)
      : typeof value === 'string'
        ? value
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean)
        : [];

  function search(body: unknown) {
    if (!isRecord(body) || typeof body.jql !== 'string') {
      throw badRequest('The JQL query is required (a search needs a bounded query).');
    }
    const query = parseJql(body.jql);
    if (query.clauses.length === 0) {
      // The enhanced search refuses unbounded queries.
      throw badRequest('Unbounded JQL queries are not allowed here. Please add a search restriction.');
    }
    for (const clause of query.clauses) {
      if (clause.field === 'project' && clause.op === '=' && !projects.has(clause.value.toUpperCase())) {
        throw badRequest(`The value '${clause.value}' does not exist for the field 'project'.`);
      }
    }
    const max = typeof body.maxResults === 'number' ? body.maxResults : DEFAULT_MAX_RESULTS;
    if (!Number.isInteger(max) || max < 0) throw badRequest('maxResults must be a non-negative integer.');
    const limit = Math.min(max, MAX_RESULTS_CAP);
    const start =
      typeof body.nextPageToken === 'string'
        ? Number(Buffer.from(body.nextPageToken, 'base64url').toString())
        : 0;
    const order = query.order ?? { field: 'created', desc: true };
    const sortKey = (i: FakeJiraIssue): string | number =>
      order.field === 'key'
        ? `${i.project}-${i.key.split('-').pop()!.padStart(12, '0')}`
        : order.field === 'summary'
          ? i.summary
          : Date.parse(order.field === 'updated' ? i.updated : i.created);
    const found = issues
      .filter((issue) => query.clauses.every((c) => matches(issue, c)))
      .sort((a, b) => {
        const x = sortKey(a);
        const y = sortKey(b);
        const cmp = x < y ? -1 : x > y ? 1 : 0;
        return order.desc ? -cmp : cmp;
      });
    const page = found.slice(start, start + limit);
    const fields = fieldList(body.fields);
    const more = start + limit < found.length;
    return {
      issues: page.map((issue) => issueJson(issue, fields)),
      isLast: !more,
      ...(more ? { nextPageToken: Buffer.from(String(start + limit)).toString('base64url') } : {}),
    };
  }

  function create(body: unknown) {
    const fields = isRecord(body) && isRecord(body.fields) ? body.fields : null;
    if (!fields) throw badRequest('The issue must have fields.');
    const errors: Record<string, string> = {};
    const projectRef = isRecord(fields.project) ? fields.project : {};
    const projectKey = typeof projectRef.key === 'string' ? projectRef.key.toUpperCase() : '';
    if (!projects.has(projectKey)) errors.project = 'valid project is required';
    const summary = typeof fields.summary === 'string' ? fields.summary : '';
    if (summary.trim() === '') errors.summary = 'You must specify a summary of the issue.';
    else if (summary.includes('\n'))
      errors.summary = 'The summary is invalid because it contains newline characters.';
    const typeRef = isRecord(fields.issuetype) ? fields.issuetype : null;
    const issueType = ISSUE_TYPES.find((t) => t.toLowerCase() === String(typeRef?.name ?? '').toLowerCase());
    if (!typeRef) errors.issuetype = 'Specify an issue type';
    else if (!issueType) errors.issuetype = 'Specify a valid issue type';
    let description: AdfNode | null = null;
    if (fields.description !== undefined && fields.description !== null) {
      try {
        description = requireAdf(fields.description, 'description');
      } catch (error) {
        Object.assign(errors, (error as JiraError).errors);
      }
    }
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    const created = now();
    const issue: FakeJiraIssue = {
      id: String(nextId++),
      key: nextKey(projectKey),
      project: projectKey,
      summary,
      description,
      status: 'To Do',
      issueType: issueType!,
      priority: 'Medium',
      assignee: null,
      created,
      updated: created,
      comments: [],
    };
    issues.push(issue);
    return { id: issue.id, key: issue.key, self: `${baseUrl}/rest/api/3/issue/${issue.id}` };
  }

  function addComment(issue: FakeJiraIssue, body: unknown) {
    if (!isRecord(body) || body.body === undefined)
      throw fieldErrors({ comment: 'Comment body can not be empty!' });
    const adf = requireAdf(body.body, 'comment');
    if (textOfAdf(adf).trim() === '') throw fieldErrors({ comment: 'Comment body can not be empty!' });
    const created = now();
    const comment: FakeJiraComment = { id: String(nextCommentId++), author: displayName, body: adf, created };
    issue.comments.push(comment);
    issue.updated = created;
    return commentJson(issue, comment);
  }

  function route(method: string, url: URL, body: unknown): { status: number; body: unknown } {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/rest/api/3/search/jql' && method === 'POST') return { status: 200, body: search(body) };
    if (path === '/rest/api/3/search/jql' && method === 'GET') {
      const params = url.searchParams;
      return {
        status: 200,
        body: search({
          jql: params.get('jql') ?? '',
          ...(params.has('maxResults') ? { maxResults: Number(params.get('maxResults')) } : {}),
          fields: params.get('fields') ?? '',
          ...(params.has('nextPageToken') ? { nextPageToken: params.get('nextPageToken') } : {}),
        }),
      };
    }
    if (path === '/rest/api/3/search') {
      // The old search was removed from Jira Cloud; clients must move to /search/jql.
      throw new JiraError(410, [
        'The requested API has been removed. Please migrate to the /rest/api/3/search/jql API.',
      ]);
    }
    if (path === '/rest/api/3/issue' && method === 'POST') return { status: 201, body: create(body) };
    const issueMatch = /^\/rest\/api\/3\/issue\/([^/]+)(\/comment)?$/.exec(path);
    if (issueMatch) {
      const issue = findIssue(issueMatch[1]!);
      if (!issueMatch[2] && method === 'GET') {
        const requested = fieldList(url.searchParams.get('fields'));
        return { status: 200, body: issueJson(issue, requested.length > 0 ? requested : ['*all']) };
      }
      if (issueMatch[2] && method === 'POST') return { status: 201, body: addComment(issue, body) };
      if (issueMatch[2] && method === 'GET') return { status: 200, body: fieldValue(issue, 'comment') };
    }
    throw new JiraError(404, [`No resource found for ${method} ${path}.`]);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw === '' ? undefined : raw;
    let malformed = false;
    if (raw !== '' && String(req.headers['content-type'] ?? '').includes('json')) {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        malformed = true;
      }
    }
    requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: { ...req.headers }, body });
    const url = new URL(req.url ?? '/', 'http://fake-jira');
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
      res.end(JSON.stringify(payload));
    };
    try {
      if (req.headers.authorization !== expectedAuth) {
        // What Jira Cloud answers to a missing or wrong email/API token pair.
        res.setHeader('www-authenticate', 'OAuth realm="https%3A%2F%2Ffake-jira"');
        throw new JiraError(401, ['Client must be authenticated to access this resource.']);
      }
      if (malformed) throw badRequest('Unexpected character in the JSON body of the request.');
      const answer = route(req.method ?? 'GET', url, body);
      send(answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof JiraError)) throw error;
      send(error.status, { errorMessages: error.errorMessages, errors: error.errors });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorMessages: [`fake Jira failure: ${String(error)}`], errors: {} }));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    issues,
    requests,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
