/**
 * The closed sets of values the whole platform shares, as plain arrays and their unions: the zod
 * schemas build their enums from them, the db types its columns with them, and the web app imports
 * them from `@atelier/schemas/constants`. No zod here (nor any import that carries it), so the web
 * app's first chunks stay small.
 */

/** Application roles, from most to least rights. */
export const appRoleIds = ['admin', 'creator', 'user'] as const;
export type AppRoleId = (typeof appRoleIds)[number];

/** Who may do what, by application role. */
export const ALL_ROLES: readonly AppRoleId[] = appRoleIds;
/** Admins and creators: providers, knowledge and the studio. */
export const BUILDERS: readonly AppRoleId[] = ['admin', 'creator'];
export const ADMINS: readonly AppRoleId[] = ['admin'];

export const workspaceRoleIds = ['admin', 'editor', 'viewer'] as const;
export type WorkspaceRoleId = (typeof workspaceRoleIds)[number];

export const languages = ['en', 'fr'] as const;
export type Language = (typeof languages)[number];

export const chatbotTypes = ['simple', 'chatflow', 'workflow'] as const;
export type ChatbotType = (typeof chatbotTypes)[number];
/** The chatbots that run a graph, and so have runs. */
export const flowChatbotTypes = ['chatflow', 'workflow'] as const satisfies readonly ChatbotType[];
export type FlowChatbotType = (typeof flowChatbotTypes)[number];

/** A chatflow or workflow run: queued, then running, then one of the three ends. */
export const runStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled'];
/** 'test' from the editor, 'chat' from the chat interface. */
export const runTriggers = ['test', 'chat'] as const;
export type RunTrigger = (typeof runTriggers)[number];
/** What one node did in a run, as stored (a running node has no row yet). */
export const nodeRunStatuses = ['succeeded', 'failed', 'skipped'] as const;
export type NodeRunStatus = (typeof nodeRunStatuses)[number];

/** The author of a stored chat message. */
export const messageRoles = ['user', 'assistant'] as const;
export type MessageRole = (typeof messageRoles)[number];

export const modelTypes = [
  'llm',
  'llm-multimodal',
  'ocr',
  'text-to-image',
  'text-to-video',
  'speech-to-text',
  'text-to-speech',
  'text-embeddings',
  'rerank',
] as const;
export type ModelType = (typeof modelTypes)[number];

export const providerKinds = [
  'openai',
  'azure_openai',
  'anthropic',
  'mistral',
  'ollama',
  'openai_compatible',
  'rerank',
] as const;
export type ProviderKind = (typeof providerKinds)[number];

/** The types of a flow's input fields (the chat interface asks for them). */
export const inputFieldTypes = [
  'string',
  'number',
  'boolean',
  'object',
  'string[]',
  'number[]',
  'object[]',
  'ChatMessage[]',
  'image',
  'image[]',
  'audio',
  'audio[]',
  'pdf',
  'pptx',
  'markdown',
  'csv',
  'json',
  'docx',
  'odt',
] as const;
export type InputFieldType = (typeof inputFieldTypes)[number];

/** The last line of a chat stream: `data: [DONE]`. */
export const STREAM_DONE = '[DONE]';
/** A heartbeat is sent every 15 seconds while nothing else is. */
export const HEARTBEAT_MS = 15_000;
