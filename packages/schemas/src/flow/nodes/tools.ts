import { z } from 'zod';
import { choice, defineNode, num, options, text } from '../fields';

export const calculatorToolNode = defineNode({
  type: 'calculator_tool',
  label: 'Calculator tool',
  category: 'tools',
  description:
    'Evaluates arithmetic (+ - * / % ^, parentheses, sqrt, round, min, max, log…). An agent can call it; on its own it evaluates the expression below.',
  fields: z.object({ expression: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'expression',
      label: 'Expression',
      kind: 'text',
      required: false,
      placeholder: '(2 + 3) * sqrt(16)',
      help: 'Used when the node runs as a step; agents give their own.',
    },
  ],
  outputs: ['result'],
  isTool: true,
});

export const textToolNode = defineNode({
  type: 'text_tool',
  label: 'Text as tool',
  category: 'tools',
  description: 'A text an agent can ask for by name, such as a policy or a product sheet.',
  fields: z.object({ name: text(), description: text(), content: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'name',
      label: 'Tool name',
      kind: 'text',
      required: true,
      placeholder: 'refund_policy',
      help: 'Letters, digits, _ and -.',
    },
    { name: 'description', label: 'When to use it', kind: 'textarea', required: true },
    { name: 'content', label: 'Content', kind: 'textarea', required: true },
  ],
  outputs: ['content'],
  isTool: true,
});

export const vectorStoreToolNode = defineNode({
  type: 'vector_store_tool',
  label: 'Vector store retrieval tool',
  category: 'tools',
  description: 'Lets an agent search a knowledge collection.',
  fields: z
    .object({
      name: text('search_knowledge'),
      description: text('Searches the knowledge collection for passages relevant to a query.'),
      collection_id: text(),
      number_documents: num(5, 1, 100),
      query: text(),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'collection_id', label: 'Collection', kind: 'collection', required: true },
    { name: 'name', label: 'Tool name', kind: 'text', required: true },
    { name: 'description', label: 'When to use it', kind: 'textarea', required: true },
    { name: 'number_documents', label: 'Documents', kind: 'number', required: false, min: 1, max: 100 },
    {
      name: 'query',
      label: 'Query',
      kind: 'text',
      required: false,
      help: 'Used when the node runs as a step; agents give their own.',
    },
  ],
  outputs: ['documents'],
  isTool: true,
});

const JIRA_OPERATIONS = ['search', 'get', 'create', 'comment'] as const;
export const jiraToolsNode = defineNode({
  type: 'jira_tools',
  label: 'Jira tools',
  category: 'tools',
  description:
    'Searches (JQL), reads, creates and comments Jira Cloud issues. An agent gets the four as tools; on its own it runs the chosen operation.',
  fields: z
    .object({
      site_url: text(),
      email: text(),
      api_token: text(),
      project_key: text(),
      operation: choice(JIRA_OPERATIONS, 'search'),
      jql: text(),
      issue_key: text(),
      summary: text(),
      description: text(),
      issue_type: text('Task'),
      comment: text(),
      max_results: num(20, 1, 100),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'site_url',
      label: 'Site URL',
      kind: 'text',
      required: true,
      placeholder: 'https://acme.atlassian.net',
    },
    { name: 'email', label: 'Account email', kind: 'text', required: true },
    { name: 'api_token', label: 'API token', kind: 'secret', required: true },
    { name: 'project_key', label: 'Default project key', kind: 'text', required: false, placeholder: 'PROJ' },
    {
      name: 'operation',
      label: 'Operation (as a step)',
      kind: 'select',
      required: false,
      options: options(...JIRA_OPERATIONS),
    },
    {
      name: 'jql',
      label: 'JQL',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'search' },
    },
    { name: 'max_results', label: 'Maximum results', kind: 'number', required: false, min: 1, max: 100 },
    { name: 'issue_key', label: 'Issue key', kind: 'text', required: false },
    {
      name: 'summary',
      label: 'Summary',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'description',
      label: 'Description',
      kind: 'textarea',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'issue_type',
      label: 'Issue type',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'comment',
      label: 'Comment',
      kind: 'textarea',
      required: false,
      visibleWhen: { field: 'operation', equals: 'comment' },
    },
  ],
  outputs: ['result'],
  isTool: true,
});
