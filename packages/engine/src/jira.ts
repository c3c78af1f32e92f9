import { NodeInputError, PermanentError } from './errors';
import type { EngineServices } from './services';
import { isRecord } from './values/files';
import { decodeText, parseJsonOrText } from './values/text';

export interface JiraAccount {
  siteUrl: string;
  email: string;
  apiToken: string;
}

type Adf = { type: string; version?: number; text?: string; content?: Adf[] };

/** Atlassian Document Format for plain text: one paragraph per line. */
export const adfFromText = (text: string): Adf => ({
  type: 'doc',
  version: 1,
  content: text.split('\n').map((line) => ({
    type: 'paragraph',
    content: line === '' ? [] : [{ type: 'text', text: line }],
  })),
});

/** The text of an Atlassian Document Format value, paragraphs on their own lines. */
export function textFromAdf(node: unknown): string {
  if (!isRecord(node)) return typeof node === 'string' ? node : '';
  if (typeof node.text === 'string') return node.text;
  const children = Array.isArray(node.content) ? node.content.map(textFromAdf) : [];
  const blocky = ['doc', 'bulletList', 'orderedList'].includes(String(node.type));
  return children.join(blocky || node.type === 'listItem' ? '\n' : '');
}

function baseUrl(site: string): string {
  let url: URL;
  try {
    url = new URL(site.trim());
  } catch {
    throw new NodeInputError(`The Jira site URL "${site}" is not a URL (e.g. https://acme.atlassian.net).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new NodeInputError('The Jira site URL must start with https://.');
  }
  return url.origin;
}

/** Calls the Jira Cloud REST API v3 with basic authentication (account email and API token). */
export async function jiraCall(
  services: EngineServices,
  account: JiraAccount,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  if (!account.email || !account.apiToken)
    throw new NodeInputError('Jira needs an account email and an API token.');
  const auth = Buffer.from(`${account.email}:${account.apiToken}`).toString('base64');
  const response = await services.http({
    method,
    url: `${baseUrl(account.siteUrl)}${path}`,
    headers: {
      authorization: `Basic ${auth}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: 30_000,
    signal,
  });
  const text = decodeText(response.body);
  const parsed = text === '' ? null : parseJsonOrText(text);
  if (response.status >= 400) {
    const messages =
      isRecord(parsed) && Array.isArray(parsed.errorMessages)
        ? [...parsed.errorMessages, ...Object.values(isRecord(parsed.errors) ? parsed.errors : {})].join(' ')
        : '';
    // Jira often answers a bad email/token pair with an empty or HTML body: say what to check.
    const hint = response.status === 401 ? ' Check the account email and API token.' : '';
    const message = `Jira answered ${response.status}${messages ? `: ${messages}` : '.'}${hint}`;
    throw response.status < 500 && response.status !== 429 ? new PermanentError(message) : new Error(message);
  }
  return parsed;
}

export interface JiraIssueSummary {
  key: string;
  summary: string;
  status: string | null;
  type: string | null;
  priority: string | null;
  assignee: string | null;
  updated: string | null;
}

const nameOf = (v: unknown, key = 'name'): string | null =>
  isRecord(v) && typeof v[key] === 'string' ? (v[key] as string) : null;

function summarize(issue: unknown): JiraIssueSummary & { fields: Record<string, unknown> } {
  const fields = isRecord(issue) && isRecord(issue.fields) ? issue.fields : {};
  return {
    key: isRecord(issue) && typeof issue.key === 'string' ? issue.key : '',
    summary: typeof fields.summary === 'string' ? fields.summary : '',
    status: nameOf(fields.status),
    type: nameOf(fields.issuetype),
    priority: nameOf(fields.priority),
    assignee: nameOf(fields.assignee, 'displayName'),
    updated: typeof fields.updated === 'string' ? fields.updated : null,
    fields,
  };
}

const SUMMARY_FIELDS = ['summary', 'status', 'issuetype', 'priority', 'assignee', 'updated'];

export async function searchIssues(
  services: EngineServices,
  account: JiraAccount,
  jql: string,
  maxResults: number,
  signal: AbortSignal,
): Promise<JiraIssueSummary[]> {
  if (!jql.trim()) throw new NodeInputError('A Jira search needs a JQL query.');
  const answer = await jiraCall(
    services,
    account,
    'POST',
    '/rest/api/3/search/jql',
    { jql, maxResults, fields: SUMMARY_FIELDS },
    signal,
  );
  const issues = isRecord(answer) && Array.isArray(answer.issues) ? answer.issues : [];
  return issues.map((issue) => {
    const { fields: _fields, ...summary } = summarize(issue);
    return summary;
  });
}

const issuePath = (key: string) => {
  if (!/^[A-Za-z0-9_-]+$/.test(key.trim())) throw new NodeInputError(`"${key}" is not a Jira issue key.`);
  return `/rest/api/3/issue/${encodeURIComponent(key.trim())}`;
};

export async function getIssue(
  services: EngineServices,
  account: JiraAccount,
  key: string,
  signal: AbortSignal,
): Promise<JiraIssueSummary & { description: string; comments: { author: string | null; body: string }[] }> {
  const fields = [...SUMMARY_FIELDS, 'description', 'comment'].join(',');
  const answer = await jiraCall(
    services,
    account,
    'GET',
    `${issuePath(key)}?fields=${fields}`,
    undefined,
    signal,
  );
  const { fields: raw, ...summary } = summarize(answer);
  const comments = isRecord(raw.comment) && Array.isArray(raw.comment.comments) ? raw.comment.comments : [];
  return {
    ...summary,
    description: textFromAdf(raw.description),
    comments: comments.map((c) => ({
      author: isRecord(c) ? nameOf(c.author, 'displayName') : null,
      body: isRecord(c) ? textFromAdf(c.body) : '',
    })),
  };
}

export async function createIssue(
  services: EngineServices,
  account: JiraAccount,
  issue: { projectKey: string; summary: string; description: string; issueType: string },
  signal: AbortSignal,
): Promise<{ key: string; id: string }> {
  if (!issue.projectKey.trim()) throw new NodeInputError('Creating a Jira issue needs a project key.');
  if (!issue.summary.trim()) throw new NodeInputError('Creating a Jira issue needs a summary.');
  const answer = await jiraCall(
    services,
    account,
    'POST',
    '/rest/api/3/issue',
    {
      fields: {
        project: { key: issue.projectKey.trim() },
        summary: issue.summary,
        issuetype: { name: issue.issueType || 'Task' },
        ...(issue.description ? { description: adfFromText(issue.description) } : {}),
      },
    },
    signal,
  );
  return {
    key: isRecord(answer) && typeof answer.key === 'string' ? answer.key : '',
    id: isRecord(answer) && typeof answer.id === 'string' ? answer.id : '',
  };
}

export async function addComment(
  services: EngineServices,
  account: JiraAccount,
  key: string,
  comment: string,
  signal: AbortSignal,
): Promise<{ id: string }> {
  if (!comment.trim()) throw new NodeInputError('A Jira comment needs some text.');
  const answer = await jiraCall(
    services,
    account,
    'POST',
    `${issuePath(key)}/comment`,
    { body: adfFromText(comment) },
    signal,
  );
  return { id: isRecord(answer) && typeof answer.id === 'string' ? answer.id : '' };
}
