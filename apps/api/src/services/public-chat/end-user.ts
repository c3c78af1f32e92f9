import { conversations } from '@atelier/db';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { ApiKeyPrincipal, EmbedPrincipal } from '../auth/principal';
import type { ChatCaller } from '../chat/simple-chat';

/**
 * Someone outside the organization chatting with one of its chatbots: named by the `user` string the
 * integrator sends, reached through an API key (or, for a key-less public chat, none). Their
 * conversations are theirs alone: another `user`, or the same one through another key, sees none.
 */
export interface EndUser {
  organizationId: string;
  chatbotId: string;
  user: string;
  apiKey: { id: string; name: string } | null;
}

export const endUserOf = (key: ApiKeyPrincipal, user: string): EndUser => ({
  organizationId: key.organizationId,
  chatbotId: key.chatbotId,
  user,
  apiKey: { id: key.keyId, name: key.keyName },
});

/** The end user as metering and runs see them: no member of the organization, the key's name. */
export const callerOfEndUser = (endUser: EndUser): ChatCaller => ({
  organizationId: endUser.organizationId,
  userId: null,
  apiKeyName: endUser.apiKey?.name ?? null,
});

type ConversationRow = typeof conversations.$inferSelect;

/** The conversations of this end user (a SQL condition). */
export function ownedBy(endUser: EndUser): SQL {
  return and(
    eq(conversations.organizationId, endUser.organizationId),
    eq(conversations.chatbotId, endUser.chatbotId),
    eq(conversations.endUser, endUser.user),
    endUser.apiKey ? eq(conversations.apiKeyId, endUser.apiKey.id) : isNull(conversations.apiKeyId),
  )!;
}

/** Whether a loaded conversation is this end user's (the same rule as `ownedBy`). */
export function owns(endUser: EndUser, row: ConversationRow): boolean {
  return (
    row.organizationId === endUser.organizationId &&
    row.chatbotId === endUser.chatbotId &&
    row.endUser === endUser.user &&
    row.apiKeyId === (endUser.apiKey?.id ?? null)
  );
}

/**
 * A visitor of a site that embeds the chat: named by the random id their browser keeps, with no API
 * key; `embed:` keeps their conversations apart from any other key-less caller's.
 */
export const embedEndUserOf = (embed: EmbedPrincipal, browser: string): EndUser => ({
  organizationId: embed.organizationId,
  chatbotId: embed.chatbotId,
  user: `embed:${browser}`,
  apiKey: null,
});
