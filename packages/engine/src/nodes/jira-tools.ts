import type { NodeFields } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import { addComment, createIssue, getIssue, type JiraAccount, searchIssues } from '../jira';
import type { EngineServices } from '../services';
import type { AgentTool } from '../types';
import type { Impl } from './shared';

type JiraFields = NodeFields<'jira_tools'>;

const accountOf = (f: JiraFields): JiraAccount => ({
  siteUrl: f.site_url,
  email: f.email,
  apiToken: f.api_token,
});

const text = (args: Record<string, unknown>, key: string): string => {
  const v = args[key];
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
};

const issueKeyParameter = { type: 'string', description: 'The issue key, e.g. PROJ-123.' };

function jiraTools(fields: JiraFields, services: EngineServices, nodeId: string): AgentTool[] {
  const account = accountOf(fields);
  const json = (value: unknown) => JSON.stringify(value);
  return [
    {
      nodeId,
      definition: {
        name: 'jira_search_issues',
        description:
          'Searches Jira issues with a JQL query; gives key, summary, status, type, priority, assignee.',
        parameters: {
          type: 'object',
          properties: {
            jql: {
              type: 'string',
              description: 'For example: project = PROJ AND status != Done ORDER BY updated DESC',
            },
            max_results: {
              type: 'number',
              description: `At most this many issues (default ${fields.max_results}).`,
            },
          },
          required: ['jql'],
        },
      },
      invoke: async (args, signal) => {
        const max =
          typeof args.max_results === 'number'
            ? Math.min(Math.max(1, args.max_results), 100)
            : fields.max_results;
        return json(await searchIssues(services, account, text(args, 'jql'), max, signal));
      },
    },
    {
      nodeId,
      definition: {
        name: 'jira_get_issue',
        description: 'Reads one Jira issue: summary, status, description and comments.',
        parameters: { type: 'object', properties: { issue_key: issueKeyParameter }, required: ['issue_key'] },
      },
      invoke: async (args, signal) =>
        json(await getIssue(services, account, text(args, 'issue_key'), signal)),
    },
    {
      nodeId,
      definition: {
        name: 'jira_create_issue',
        description: 'Creates a Jira issue and gives its key.',
        parameters: {
          type: 'object',
          properties: {
            summary: { type: 'string' },
            description: { type: 'string' },
            project_key: {
              type: 'string',
              description: `Defaults to ${fields.project_key || 'the configured project'}.`,
            },
            issue_type: { type: 'string', description: `Defaults to ${fields.issue_type || 'Task'}.` },
          },
          required: ['summary'],
        },
      },
      invoke: async (args, signal) =>
        json(
          await createIssue(
            services,
            account,
            {
              projectKey: text(args, 'project_key') || fields.project_key,
              summary: text(args, 'summary'),
              description: text(args, 'description'),
              issueType: text(args, 'issue_type') || fields.issue_type,
            },
            signal,
          ),
        ),
    },
    {
      nodeId,
      definition: {
        name: 'jira_add_comment',
        description: 'Adds a comment to a Jira issue.',
        parameters: {
          type: 'object',
          properties: { issue_key: issueKeyParameter, comment: { type: 'string' } },
          required: ['issue_key', 'comment'],
        },
      },
      invoke: async (args, signal) =>
        json(await addComment(services, account, text(args, 'issue_key'), text(args, 'comment'), signal)),
    },
  ];
}

/** As a step, runs the chosen operation; attached to an agent, offers all four. */
export const jiraToolsNode: Impl<'jira_tools'> = {
  async run({ fields, services, signal }) {
    const account = accountOf(fields);
    switch (fields.operation) {
      case 'search':
        return { result: await searchIssues(services, account, fields.jql, fields.max_results, signal) };
      case 'get':
        if (!fields.issue_key) throw new NodeInputError('Give the issue key.');
        return { result: await getIssue(services, account, fields.issue_key, signal) };
      case 'create':
        return {
          result: await createIssue(
            services,
            account,
            {
              projectKey: fields.project_key,
              summary: fields.summary,
              description: fields.description,
              issueType: fields.issue_type,
            },
            signal,
          ),
        };
      case 'comment':
        if (!fields.issue_key) throw new NodeInputError('Give the issue key.');
        return { result: await addComment(services, account, fields.issue_key, fields.comment, signal) };
    }
  },
  tools: ({ fields, services, nodeId }) => jiraTools(fields, services, nodeId),
};
