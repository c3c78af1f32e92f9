import type { Db } from '@atelier/db';
import { createSecretBox } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { Runtime } from '@atelier/runtime';
import { createAnalyticsService } from './analytics/analytics-service';
import { createApiKeyHasher } from './api-keys/api-key-hash';
import { createApiKeysService } from './api-keys/api-keys-service';
import { createAccountService } from './auth/account-service';
import { type AuthUser, createUserRows } from './auth/user-rows';
import { createSessionService, type AccessClaims } from './auth/session-service';
import { createChatbotsService } from './chatbots/chatbots-service';
import { createConversationsService } from './chat/conversations-service';
import { createKnowledgeRetriever } from './chat/knowledge-seam';
import { createSimpleChat } from './chat/simple-chat';
import { createEmbedsService } from './embeds/embeds-service';
import { createCreditsService } from './credits/credits-service';
import type { Mailer } from './mail/mailer';
import { createKnowledgeServices } from './knowledge';
import { createInvokeService } from './providers/invoke-service';
import { createModelsService } from './providers/models-service';
import { createProvidersService } from './providers/providers-service';
import { createPublicChat } from './public-chat/public-chat';
import { createRunsService } from './runs/runs-service';
import { createUsersService } from './users/users-service';
import { createWorkspacesService } from './workspaces/workspaces-service';

export interface ServiceDeps {
  db: Db;
  mailer: Mailer;
  signAccessToken(claims: AccessClaims): string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  webUrl: string;
  /** The API's address as integrators reach it (embed snippets). */
  publicApiUrl: string;
  onMailError(error: unknown): void;
  encryptionKey: Buffer;
  providerUrlPolicy: UrlPolicy;
  runtime: Runtime;
  dataDir: string;
  /** A chatbot's collection that could not be searched (the answer goes on without it). */
  onKnowledgeError(error: unknown, context: string): void;
}

/** Wires the services together; they know nothing of HTTP. */
export function createServices(deps: ServiceDeps) {
  const userRows = createUserRows(deps.db, deps.runtime.caches.cache<AuthUser>('auth-users'));
  const sessions = createSessionService({ ...deps, userRows });
  const accounts = createAccountService({ ...deps, sessions, userRows });
  const workspaces = createWorkspacesService({ db: deps.db, modelAccess: deps.runtime.models });
  const credits = createCreditsService({ db: deps.db });
  const box = createSecretBox(deps.encryptionKey);
  const modelAccess = deps.runtime.models;
  const providers = createProvidersService({
    db: deps.db,
    workspaces,
    box,
    modelAccess,
    urlPolicy: deps.providerUrlPolicy,
  });
  const models = createModelsService({ db: deps.db, workspaces, providers, modelAccess });
  const conversations = createConversationsService({ db: deps.db });
  const chatbots = createChatbotsService({ db: deps.db, workspaces, providers });
  const runs = createRunsService({ db: deps.db, runtime: deps.runtime, chatbots, workspaces, credits });
  const simpleChat = createSimpleChat({
    db: deps.db,
    conversations,
    providers,
    credits,
    knowledge: createKnowledgeRetriever({
      db: deps.db,
      knowledge: deps.runtime.knowledge,
      onError: deps.onKnowledgeError,
    }),
  });
  return {
    modelAccess,
    analytics: createAnalyticsService({ db: deps.db, workspaces }),
    sessions,
    accounts,
    userRows,
    users: createUsersService({ db: deps.db, accounts, userRows }),
    workspaces,
    credits,
    providers,
    models,
    invoke: createInvokeService({ db: deps.db, models, providers, credits, workspaces }),
    chatbots,
    runs,
    conversations,
    knowledge: createKnowledgeServices({
      db: deps.db,
      workspaces,
      credits,
      box,
      modelAccess,
      urlPolicy: deps.providerUrlPolicy,
      knowledge: deps.runtime.knowledge,
      dataDir: deps.dataDir,
      onError: deps.onKnowledgeError,
    }),
    simpleChat,
    apiKeys: createApiKeysService({
      db: deps.db,
      chatbots,
      hasher: createApiKeyHasher(deps.encryptionKey),
    }),
    embeds: createEmbedsService({ db: deps.db, chatbots, publicApiUrl: deps.publicApiUrl }),
    publicChat: createPublicChat({ db: deps.db, simpleChat, runs, events: deps.runtime.events }),
  };
}

export type Services = ReturnType<typeof createServices>;
