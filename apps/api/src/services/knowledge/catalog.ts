import type { SettingField, SupportedConnector, ToolTypeInfo } from '@atelier/schemas';

const field = (
  name: string,
  label: string,
  options: { required?: boolean; secret?: boolean; placeholder?: string } = {},
): SettingField => ({
  name,
  label,
  required: options.required ?? false,
  secret: options.secret ?? false,
  placeholder: options.placeholder ?? null,
});

/**
 * The kinds of connectors. A pgvector URL's credentials (`user:password@`) are its secret: taken out of
 * the stored URL and sealed; a Qdrant's secret is its `api_key`.
 */
export const SUPPORTED_CONNECTORS: readonly SupportedConnector[] = [
  {
    kind: 'builtin',
    label: 'Built-in store',
    description: "Atelier's own database (pgvector): every workspace has one, ready to use.",
    creatable: false,
    writable: true,
    fields: [],
  },
  {
    kind: 'pgvector',
    label: 'PostgreSQL with pgvector',
    description:
      'An external PostgreSQL: its tables with a vector column are read-only collections; collections Atelier creates there take uploads.',
    creatable: true,
    writable: true,
    fields: [
      field('url', 'Connection string', {
        required: true,
        placeholder: 'postgres://user:password@db.example.com:5432/vectors',
      }),
      field('schema', 'Schema for the collections Atelier creates', { placeholder: 'atelier_kb' }),
    ],
  },
  {
    kind: 'qdrant',
    label: 'Qdrant',
    description: 'A Qdrant server over its REST API.',
    creatable: true,
    writable: true,
    fields: [
      field('url', 'URL', { required: true, placeholder: 'https://qdrant.example.com:6333' }),
      field('api_key', 'API key', { secret: true }),
    ],
  },
];

/** The stored tool configurations and their settings (one secret each). */
export const TOOL_TYPES: readonly ToolTypeInfo[] = [
  {
    type: 'figma',
    label: 'Figma',
    description: 'Reads Figma files (the Figma loader).',
    fields: [field('access_token', 'Personal access token', { required: true, secret: true })],
  },
  {
    type: 'jira',
    label: 'Jira',
    description: 'Reads and writes Jira issues (the Jira node).',
    fields: [
      field('site_url', 'Site URL', { required: true, placeholder: 'https://your-team.atlassian.net' }),
      field('email', 'Account email', { required: true }),
      field('api_token', 'API token', { required: true, secret: true }),
    ],
  },
  {
    type: 'notion',
    label: 'Notion',
    description: 'Reads Notion databases (the Notion loader).',
    fields: [field('integration_token', 'Integration token', { required: true, secret: true })],
  },
  {
    type: 'gitbook',
    label: 'GitBook',
    description: 'Reads GitBook spaces (the GitBook loader); public spaces need no token.',
    fields: [field('token', 'API token', { secret: true })],
  },
];

export const connectorFields = (kind: string) =>
  SUPPORTED_CONNECTORS.find((c) => c.kind === kind)?.fields ?? [];
export const toolFields = (type: string) => TOOL_TYPES.find((t) => t.type === type)?.fields ?? [];
