import { describe, expect, it } from 'vitest';
import { runFlow } from '../src';
import type { HttpServiceRequest, HttpServiceResponse } from '../src';
import { chainEdges, chatStub, flow, inputNode, node, runNode, stubServices, toolEdge } from './helpers';

const account = { site_url: 'https://acme.atlassian.net/', email: 'bot@acme.test', api_token: 'tok' };
const AUTH = `Basic ${Buffer.from('bot@acme.test:tok').toString('base64')}`;

const answer = (status: number, value: unknown): HttpServiceResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: new Uint8Array(Buffer.from(JSON.stringify(value))),
});

/** A fake Jira Cloud answering the four calls the node makes, recording each request. */
function fakeJira() {
  const calls: (Omit<HttpServiceRequest, 'signal' | 'body'> & { body?: unknown })[] = [];
  const http = async ({ signal: _signal, body, ...req }: HttpServiceRequest) => {
    calls.push({ ...req, ...(body === undefined ? {} : { body: JSON.parse(body) as unknown }) });
    const path = new URL(req.url).pathname;
    if (req.method === 'POST' && path === '/rest/api/3/search/jql') {
      return answer(200, {
        issues: [
          {
            key: 'OPS-1',
            fields: {
              summary: 'Printer on fire',
              status: { name: 'To Do' },
              issuetype: { name: 'Bug' },
              priority: { name: 'High' },
              assignee: { displayName: 'Ada' },
              updated: '2025-01-02T10:00:00.000+0000',
            },
          },
        ],
      });
    }
    if (req.method === 'GET' && path === '/rest/api/3/issue/OPS-1') {
      return answer(200, {
        key: 'OPS-1',
        fields: {
          summary: 'Printer on fire',
          status: { name: 'To Do' },
          description: {
            type: 'doc',
            version: 1,
            content: [
              {
                type: 'paragraph',
                content: [
                  { type: 'text', text: 'Smoke from ' },
                  { type: 'text', text: 'tray 2.' },
                ],
              },
              { type: 'paragraph', content: [{ type: 'text', text: 'Urgent.' }] },
            ],
          },
          comment: {
            comments: [
              {
                author: { displayName: 'Bob' },
                body: {
                  type: 'doc',
                  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'On it' }] }],
                },
              },
            ],
          },
        },
      });
    }
    if (req.method === 'GET' && path === '/rest/api/3/issue/NOPE-9')
      return answer(404, { errorMessages: ['Issue does not exist'] });
    if (req.method === 'POST' && path === '/rest/api/3/issue')
      return answer(201, { id: '10001', key: 'OPS-2' });
    if (req.method === 'POST' && path === '/rest/api/3/issue/OPS-1/comment')
      return answer(201, { id: '555' });
    return answer(500, {});
  };
  return { http, calls };
}

describe('jira_tools as a step', () => {
  it('searches with JQL through the v3 search endpoint with basic auth', async () => {
    const jira = fakeJira();
    const { outputs } = await runNode(
      node('jira_tools', 'ji01', { ...account, operation: 'search', jql: 'project = OPS', max_results: 5 }),
      stubServices({ http: jira.http }),
    );
    expect(jira.calls).toEqual([
      {
        method: 'POST',
        url: 'https://acme.atlassian.net/rest/api/3/search/jql',
        headers: { authorization: AUTH, accept: 'application/json', 'content-type': 'application/json' },
        body: {
          jql: 'project = OPS',
          maxResults: 5,
          fields: ['summary', 'status', 'issuetype', 'priority', 'assignee', 'updated'],
        },
        timeoutMs: 30_000,
      },
    ]);
    expect(outputs).toEqual({
      result: [
        {
          key: 'OPS-1',
          summary: 'Printer on fire',
          status: 'To Do',
          type: 'Bug',
          priority: 'High',
          assignee: 'Ada',
          updated: '2025-01-02T10:00:00.000+0000',
        },
      ],
    });
  });

  it('reads an issue with its description and comments as text', async () => {
    const jira = fakeJira();
    const { outputs } = await runNode(
      node('jira_tools', 'ji01', { ...account, operation: 'get', issue_key: 'OPS-1' }),
      stubServices({ http: jira.http }),
    );
    expect(jira.calls[0]).toMatchObject({
      method: 'GET',
      url: 'https://acme.atlassian.net/rest/api/3/issue/OPS-1?fields=summary,status,issuetype,priority,assignee,updated,description,comment',
    });
    expect(outputs!.result).toMatchObject({
      key: 'OPS-1',
      description: 'Smoke from tray 2.\nUrgent.',
      comments: [{ author: 'Bob', body: 'On it' }],
    });
  });

  it('creates an issue with an Atlassian Document Format description', async () => {
    const jira = fakeJira();
    const { outputs } = await runNode(
      node('jira_tools', 'ji01', {
        ...account,
        operation: 'create',
        project_key: 'OPS',
        summary: 'Replace printer',
        description: 'Line one\nLine two',
      }),
      stubServices({ http: jira.http }),
    );
    expect(jira.calls[0]).toMatchObject({
      method: 'POST',
      url: 'https://acme.atlassian.net/rest/api/3/issue',
    });
    expect(jira.calls[0]!.body).toEqual({
      fields: {
        project: { key: 'OPS' },
        summary: 'Replace printer',
        issuetype: { name: 'Task' },
        description: {
          type: 'doc',
          version: 1,
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'Line one' }] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Line two' }] },
          ],
        },
      },
    });
    expect(outputs).toEqual({ result: { key: 'OPS-2', id: '10001' } });
  });

  it("reports Jira's error message and refuses keys that are not issue keys", async () => {
    const jira = fakeJira();
    const missing = await runNode(
      node('jira_tools', 'ji01', { ...account, operation: 'get', issue_key: 'NOPE-9' }),
      stubServices({ http: jira.http }),
    );
    expect(missing.error).toMatch(/Jira answered 404: Issue does not exist$/);
    const odd = await runNode(
      node('jira_tools', 'ji01', { ...account, operation: 'get', issue_key: '../admin' }),
      stubServices({ http: jira.http }),
    );
    expect(odd.error).toMatch(/"..\/admin" is not a Jira issue key\.$/);
    expect(jira.calls).toHaveLength(1);
  });

  it('says to check the email and API token when Jira refuses them, even without a JSON body', async () => {
    const http = async (): Promise<HttpServiceResponse> => ({
      status: 401,
      headers: { 'content-type': 'text/html' },
      body: new Uint8Array(),
    });
    const refused = await runNode(
      node('jira_tools', 'ji01', { ...account, operation: 'get', issue_key: 'OPS-1' }),
      stubServices({ http }),
    );
    expect(refused.error).toMatch(/Jira answered 401\. Check the account email and API token\.$/);
  });
});

describe('jira_tools for an agent', () => {
  it('offers search, get, create and comment, and comments through the API', async () => {
    const jira = fakeJira();
    const input = inputNode();
    const tools = node('jira_tools', 'ji01', { ...account, project_key: 'OPS' });
    const agent = node('agent', 'ag01', { modelId: 'gpt', agentPrompt: 'Comment OPS-1' });
    const out = node('output', 'ou01', { response: '{{#agent_ag01.response#}}' });
    const { chat, requests } = chatStub((_, n) =>
      n === 1
        ? {
            text: '',
            toolCalls: [
              { id: 'c1', name: 'jira_add_comment', arguments: { issue_key: 'OPS-1', comment: 'Fixed.' } },
            ],
          }
        : { text: 'Commented.', toolCalls: [] },
    );
    const result = await runFlow({
      config: flow([input, agent, out, tools], [...chainEdges(input, agent, out), toolEdge(tools, agent)]),
      services: stubServices({ chat, http: jira.http }),
    });
    expect(result.text).toBe('Commented.');
    expect(requests[0]!.tools!.map((t) => t.name)).toEqual([
      'jira_search_issues',
      'jira_get_issue',
      'jira_create_issue',
      'jira_add_comment',
    ]);
    expect(jira.calls).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: 'https://acme.atlassian.net/rest/api/3/issue/OPS-1/comment',
        body: {
          body: {
            type: 'doc',
            version: 1,
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Fixed.' }] }],
          },
        },
      }),
    ]);
    expect(requests[1]!.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: '{"id":"555"}' });
  });
});
