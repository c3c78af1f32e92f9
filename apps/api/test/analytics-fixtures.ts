import { conversations, inferenceLogs, messages, pageViews } from '@atelier/db';
import type { FastifyInstance } from 'fastify';
import { call, type Actor, type Org } from './helpers';

type LogInsert = typeof inferenceLogs.$inferInsert;

/** A chatbot of the workspace (no model needed: its logs are written by the test). */
export async function chatbot(app: FastifyInstance, owner: Actor, workspaceId: string, name: string) {
  const res = await call(app, 'POST', '/chatbots', {
    token: owner.token,
    body: { workspace_id: workspaceId, name, type: 'simple' },
  });
  if (res.status !== 201) throw new Error(`chatbot: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Inference-log rows as metering writes them; the test chooses the figures and the instant. */
export async function insertLogs(
  app: FastifyInstance,
  org: Org,
  workspaceId: string,
  rows: (Partial<LogInsert> & { createdAt: Date })[],
): Promise<string[]> {
  const values = rows.map((r) => {
    const error = r.error ?? false;
    return {
      organizationId: org.id,
      workspaceId,
      chatbotName: 'Bot',
      modelName: 'm1',
      providerModelName: 'gpt-4o-mini',
      providerType: 'openai' as const,
      userMessage: 'question',
      response: 'answer',
      completePrompt: 'system: be brief\nuser: question',
      requestWords: 5,
      responseWords: 1,
      totalMs: 100,
      streamed: true,
      status: error ? ('error' as const) : ('success' as const),
      errorMessage: error ? 'The provider failed.' : '',
      ...r,
    };
  });
  const inserted = await app.db.insert(inferenceLogs).values(values).returning({ id: inferenceLogs.id });
  return inserted.map((r) => r.id);
}

/** A conversation with messages at the given instants (updated_at is its last message, as the runtime does). */
export async function insertConversation(
  app: FastifyInstance,
  org: Org,
  user: Actor,
  chatbotId: string,
  at: Date[],
) {
  const [conversation] = await app.db
    .insert(conversations)
    .values({
      organizationId: org.id,
      userId: user.id,
      chatbotId,
      chatbotType: 'simple',
      createdAt: at[0],
      updatedAt: at.at(-1),
    })
    .returning({ id: conversations.id });
  await app.db.insert(messages).values(
    at.map((createdAt, i) => ({
      conversationId: conversation!.id,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: [{ type: 'text' as const, text: `message ${i}` }],
      createdAt,
    })),
  );
  return conversation!.id;
}

export async function insertPageViews(app: FastifyInstance, org: Org, user: Actor, name: string, at: Date[]) {
  await app.db
    .insert(pageViews)
    .values(at.map((createdAt) => ({ organizationId: org.id, userId: user.id, name, path: '/', createdAt })));
}

/** The analytics query string of a range, a zone and more. */
export const range = (from: string, to: string, more: Record<string, string> = {}) =>
  new URLSearchParams({ from, to, ...more }).toString();
