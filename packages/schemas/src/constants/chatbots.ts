/** Chatbots, runs and messages. */

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
export const runTriggers = ['test', 'chat', 'api'] as const;
export type RunTrigger = (typeof runTriggers)[number];
/** A node's status in a run's events: running, then one of the three ends. */
export const nodeExecutionStatuses = ['running', 'succeeded', 'failed', 'skipped'] as const;
export type NodeExecutionStatus = (typeof nodeExecutionStatuses)[number];
/** What one node did in a run, as stored (a running node has no row yet). */
export const finishedNodeStatuses = [
  'succeeded',
  'failed',
  'skipped',
] as const satisfies readonly NodeExecutionStatus[];
export type FinishedNodeStatus = (typeof finishedNodeStatuses)[number];

/** The author of a stored chat message. */
export const messageRoles = ['user', 'assistant'] as const;
export type MessageRole = (typeof messageRoles)[number];
/** A person's rating of an answer. */
export const messageFeedbacks = ['up', 'down'] as const;
export type MessageFeedback = (typeof messageFeedbacks)[number];
