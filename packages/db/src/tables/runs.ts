import type { FlowConfiguration } from '@atelier/schemas';
import { flowChatbotTypes, finishedNodeStatuses, runStatuses, runTriggers } from '@atelier/schemas/constants';
import {
  bigserial,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { chatbots } from './chatbots';
import { conversations } from './conversations';
import { organizations } from './organizations';
import { users } from './users';

/**
 * The flow configurations runs ran, each stored once per organization and named by the hash of its
 * JSON: the thousand chats of one published version share one row instead of carrying a copy each.
 */
export const flowConfigurations = pgTable(
  'flow_configurations',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    configuration: jsonb('configuration').$type<FlowConfiguration>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.hash] })],
);

/**
 * One execution of a chatflow or workflow. It keeps the configuration it ran (a draft or a saved
 * version, in `flow_configurations`), so a run can be inspected after the chatbot changed or was deleted.
 */
export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').notNull(),
    chatbotId: uuid('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
    chatbotType: text('chatbot_type', { enum: flowChatbotTypes }).notNull(),
    /** Set when the run answers a chat message. */
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    trigger: text('trigger', { enum: runTriggers }).notNull(),
    status: text('status', { enum: runStatuses }).notNull().default('queued'),
    /** The saved version that ran; null for a draft. */
    configVersion: integer('config_version'),
    /** The configuration that ran: `flow_configurations.hash` in the run's organization. */
    configurationHash: text('configuration_hash').notNull(),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
    outputs: jsonb('outputs').$type<Record<string, unknown>>(),
    finalOutput: text('final_output'),
    error: text('error'),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    /** Started through the public API: the key's name, carried into the run's inference logs. */
    apiKeyName: text('api_key_name'),
    /** Incremented each time a runner takes the run; a second take means a runner died. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Touched by the runner while it works: a running run without a recent beat is dead. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** Set by a cancel; the runner also reads it with each heartbeat, should the signal be missed. */
    cancelRequestedAt: timestamp('cancel_requested_at', { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'runs_configuration_fk',
      columns: [t.organizationId, t.configurationHash],
      foreignColumns: [flowConfigurations.organizationId, flowConfigurations.hash],
    }),
    index('runs_chatbot_created_idx').on(t.chatbotId, t.createdAt),
    index('runs_status_heartbeat_idx').on(t.status, t.heartbeatAt),
  ],
);

/** What one node did in a run (spec: node ID, status, error message, duration, parameters, outputs). */
export const nodeExecutions = pgTable(
  'node_executions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    nodeType: text('node_type').notNull(),
    /** For nodes inside an iteration: which item. */
    iterationIndex: integer('iteration_index'),
    status: text('status', { enum: finishedNodeStatuses }).notNull(),
    error: text('error'),
    durationSeconds: doublePrecision('duration_seconds').notNull().default(0),
    parameters: jsonb('parameters').$type<unknown>().notNull().default({}),
    outputs: jsonb('outputs').$type<Record<string, unknown>>().notNull().default({}),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /**
     * The order the executions were written in: nodes of a run end in the order they ran, and two that
     * started within one millisecond (a trivial node and the next) share `startedAt`.
     */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [index('node_executions_run_idx').on(t.runId, t.startedAt)],
);
