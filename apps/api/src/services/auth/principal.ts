import type { AppRoleId } from '@atelier/schemas';

/** Who is calling: resolved from the access token and the user's current row on every request. */
export interface Principal {
  userId: string;
  organizationId: string;
  role: AppRoleId;
  email: string;
}

/**
 * A caller of the public API (`/v1`): an API key, resolved from its hash on every request. It reaches
 * one chatbot, published, and nothing else.
 */
export interface ApiKeyPrincipal {
  keyId: string;
  keyName: string;
  organizationId: string;
  workspaceId: string;
  chatbotId: string;
}

/**
 * A caller of the embed routes (`/embed/{token}/…`): a chatbot's public embed token, resolved on every
 * request. It reaches that one chatbot's embed routes, enabled and published, from an allowed origin.
 */
export interface EmbedPrincipal {
  organizationId: string;
  chatbotId: string;
  token: string;
}
