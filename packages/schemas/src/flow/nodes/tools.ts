import { z } from 'zod';
import { choice, defineNode, namedOptions, num, text } from '../fields';

export const calculatorToolNode = defineNode({
  type: 'calculator_tool',
  label: 'nodeCatalog.nodes.calculator_tool.label',
  category: 'tools',
  description: 'nodeCatalog.nodes.calculator_tool.description',
  fields: z.object({ expression: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'expression',
      label: 'nodeCatalog.fields.expression',
      kind: 'text',
      required: false,
      placeholder: '(2 + 3) * sqrt(16)',
      help: 'nodeCatalog.help.expression',
    },
  ],
  outputs: ['result'],
  isTool: true,
});

export const textToolNode = defineNode({
  type: 'text_tool',
  label: 'nodeCatalog.nodes.text_tool.label',
  category: 'tools',
  description: 'nodeCatalog.nodes.text_tool.description',
  fields: z.object({ name: text(), description: text(), content: text() }).prefault({}),
  fieldMeta: [
    {
      name: 'name',
      label: 'nodeCatalog.fields.name',
      kind: 'text',
      required: true,
      placeholder: 'refund_policy',
      help: 'nodeCatalog.help.name',
    },
    { name: 'description', label: 'nodeCatalog.fields.description', kind: 'textarea', required: true },
    { name: 'content', label: 'nodeCatalog.fields.content', kind: 'textarea', required: true },
  ],
  outputs: ['content'],
  isTool: true,
});

export const vectorStoreToolNode = defineNode({
  type: 'vector_store_tool',
  label: 'nodeCatalog.nodes.vector_store_tool.label',
  category: 'tools',
  description: 'nodeCatalog.nodes.vector_store_tool.description',
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
    { name: 'collection_id', label: 'nodeCatalog.fields.collectionId', kind: 'collection', required: true },
    { name: 'name', label: 'nodeCatalog.fields.name', kind: 'text', required: true },
    { name: 'description', label: 'nodeCatalog.fields.description', kind: 'textarea', required: true },
    {
      name: 'number_documents',
      label: 'nodeCatalog.fields.numberDocuments',
      kind: 'number',
      required: false,
      min: 1,
      max: 100,
    },
    {
      name: 'query',
      label: 'nodeCatalog.fields.query',
      kind: 'text',
      required: false,
      help: 'nodeCatalog.help.query',
    },
  ],
  outputs: ['documents'],
  isTool: true,
});

const JIRA_OPERATIONS = ['search', 'get', 'create', 'comment'] as const;
export const jiraToolsNode = defineNode({
  type: 'jira_tools',
  label: 'nodeCatalog.nodes.jira_tools.label',
  category: 'tools',
  description: 'nodeCatalog.nodes.jira_tools.description',
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
      label: 'nodeCatalog.fields.siteUrl',
      kind: 'text',
      required: true,
      placeholder: 'https://acme.atlassian.net',
    },
    { name: 'email', label: 'nodeCatalog.fields.email', kind: 'text', required: true },
    { name: 'api_token', label: 'nodeCatalog.fields.apiToken', kind: 'secret', required: true },
    {
      name: 'project_key',
      label: 'nodeCatalog.fields.projectKey',
      kind: 'text',
      required: false,
      placeholder: 'PROJ',
    },
    {
      name: 'operation',
      label: 'nodeCatalog.fields.operation',
      kind: 'select',
      required: false,
      options: namedOptions('operation', ...JIRA_OPERATIONS),
    },
    {
      name: 'jql',
      label: 'nodeCatalog.fields.jql',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'search' },
    },
    {
      name: 'max_results',
      label: 'nodeCatalog.fields.maxResults',
      kind: 'number',
      required: false,
      min: 1,
      max: 100,
    },
    { name: 'issue_key', label: 'nodeCatalog.fields.issueKey', kind: 'text', required: false },
    {
      name: 'summary',
      label: 'nodeCatalog.fields.summary',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'description',
      label: 'nodeCatalog.fields.description_jiraTools',
      kind: 'textarea',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'issue_type',
      label: 'nodeCatalog.fields.issueType',
      kind: 'text',
      required: false,
      visibleWhen: { field: 'operation', equals: 'create' },
    },
    {
      name: 'comment',
      label: 'nodeCatalog.fields.comment',
      kind: 'textarea',
      required: false,
      visibleWhen: { field: 'operation', equals: 'comment' },
    },
  ],
  outputs: ['result'],
  isTool: true,
});
