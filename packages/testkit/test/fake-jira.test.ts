import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adfText, startFakeJira, textOfAdf, type FakeJira } from '../src/fake-jira';

const EMAIL = 'bot@acme.test';
const TOKEN = 'jira-token';
const AUTH = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`;

let jira: FakeJira;
beforeAll(async () => {
  jira = await startFakeJira({
    email: EMAIL,
    apiToken: TOKEN,
    projects: ['OPS', 'WEB'],
    issues: [
      {
        key: 'OPS-1',
        summary: 'Printer on fire',
        description: 'Smoke from tray 2.\nUrgent.',
        issueType: 'Bug',
        priority: 'High',
        assignee: 'Ada',
        comments: [{ author: 'Bob', body: 'On it' }],
      },
      { key: 'OPS-2', summary: 'Order toner', description: 'For the printer on floor 3' },
      { key: 'WEB-1', summary: 'Login page is slow' },
    ],
  });
});
afterAll(() => jira.close());

function call(method: string, path: string, body?: unknown, auth = AUTH) {
  return fetch(`${jira.url}${path}`, {
    method,
    headers: {
      authorization: auth,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const search = (jql: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/rest/api/3/search/jql', { jql, fields: ['summary', 'status', 'priority'], ...extra });

describe('fake Jira Cloud', () => {
  it('checks basic auth and answers 401 in Jira’s error shape', async () => {
    const wrong = await call(
      'GET',
      '/rest/api/3/issue/OPS-1',
      undefined,
      `Basic ${Buffer.from(`${EMAIL}:nope`).toString('base64')}`,
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      errorMessages: ['Client must be authenticated to access this resource.'],
      errors: {},
    });
    const none = await fetch(`${jira.url}/rest/api/3/issue/OPS-1`);
    expect(none.status).toBe(401);
    expect(jira.requests.at(-1)).toMatchObject({ method: 'GET', path: '/rest/api/3/issue/OPS-1' });
  });

  it('searches with project and text clauses, honours maxResults and gives only the asked fields', async () => {
    const printer = await search('project = OPS AND text ~ "printer" ORDER BY key ASC');
    expect(printer.status).toBe(200);
    const body: any = await printer.json();
    expect(body.issues.map((i: any) => i.key)).toEqual(['OPS-1', 'OPS-2']);
    expect(body.isLast).toBe(true);
    expect(body.issues[0]).toMatchObject({
      key: 'OPS-1',
      fields: { summary: 'Printer on fire', status: { name: 'To Do' }, priority: { name: 'High' } },
    });
    expect(Object.keys(body.issues[0].fields).sort()).toEqual(['priority', 'status', 'summary']);

    // text ~ searches descriptions (and comments) too; the project clause keeps WEB out.
    const toner: any = await (await search('text ~ "floor"')).json();
    expect(toner.issues.map((i: any) => i.key)).toEqual(['OPS-2']);
    const web: any = await (await search('project = "WEB"')).json();
    expect(web.issues.map((i: any) => i.key)).toEqual(['WEB-1']);

    const one: any = await (await search('project = OPS ORDER BY key ASC', { maxResults: 1 })).json();
    expect(one.issues.map((i: any) => i.key)).toEqual(['OPS-1']);
    expect(one.isLast).toBe(false);
    const next: any = await (
      await search('project = OPS ORDER BY key ASC', { maxResults: 1, nextPageToken: one.nextPageToken })
    ).json();
    expect(next.issues.map((i: any) => i.key)).toEqual(['OPS-2']);
  });

  it('refuses JQL it does not know, unknown projects and the removed search API', async () => {
    const field = await search('reporter = me');
    expect(field.status).toBe(400);
    expect(((await field.json()) as any).errorMessages[0]).toMatch(/Field 'reporter' does not exist/);
    const project = await search('project = NOPE');
    expect(project.status).toBe(400);
    expect(((await project.json()) as any).errorMessages).toEqual([
      "The value 'NOPE' does not exist for the field 'project'.",
    ]);
    expect((await call('GET', '/rest/api/3/search?jql=project%3DOPS')).status).toBe(410);
  });

  it('reads an issue with its description and comments in ADF, and 404s unknown keys', async () => {
    const res = await call('GET', '/rest/api/3/issue/OPS-1?fields=summary,description,comment,assignee');
    expect(res.status).toBe(200);
    const issue: any = await res.json();
    expect(issue.key).toBe('OPS-1');
    expect(issue.fields.description).toEqual(adfText('Smoke from tray 2.\nUrgent.'));
    expect(issue.fields.assignee.displayName).toBe('Ada');
    expect(issue.fields.comment.comments).toHaveLength(1);
    expect(issue.fields.comment.comments[0]).toMatchObject({
      author: { displayName: 'Bob' },
      body: adfText('On it'),
    });
    expect(issue.fields.status).toBeUndefined();

    const missing = await call('GET', '/rest/api/3/issue/OPS-99');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      errorMessages: ['Issue does not exist or you do not have permission to see it.'],
      errors: {},
    });
  });

  it('creates issues numbered per project and comments on them, checking ADF', async () => {
    const created = await call('POST', '/rest/api/3/issue', {
      fields: {
        project: { key: 'OPS' },
        summary: 'Replace printer',
        issuetype: { name: 'Task' },
        description: adfText('Line one\nLine two'),
      },
    });
    expect(created.status).toBe(201);
    const answer: any = await created.json();
    expect(answer).toEqual({
      id: expect.any(String),
      key: 'OPS-3',
      self: `${jira.url}/rest/api/3/issue/${answer.id}`,
    });
    const stored = jira.issues.find((i) => i.key === 'OPS-3')!;
    expect(textOfAdf(stored.description)).toBe('Line one\nLine two');

    const plain = await call('POST', '/rest/api/3/issue', {
      fields: {
        project: { key: 'OPS' },
        summary: 'x',
        issuetype: { name: 'Task' },
        description: 'plain text',
      },
    });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as any).errors.description).toMatch(/Atlassian Document/);
    const invalid = await call('POST', '/rest/api/3/issue', {
      fields: { project: { key: 'ZZZ' }, summary: '', issuetype: { name: 'Task' } },
    });
    expect(((await invalid.json()) as any).errors).toEqual({
      project: 'valid project is required',
      summary: 'You must specify a summary of the issue.',
    });

    const comment = await call('POST', '/rest/api/3/issue/OPS-3/comment', { body: adfText('Done.') });
    expect(comment.status).toBe(201);
    const posted: any = await comment.json();
    expect(posted).toMatchObject({ id: expect.any(String), author: { displayName: 'Atelier Bot' } });
    expect(stored.comments.map((c) => textOfAdf(c.body))).toEqual(['Done.']);
    expect((await call('POST', '/rest/api/3/issue/NOPE-1/comment', { body: adfText('x') })).status).toBe(404);
  });
});
