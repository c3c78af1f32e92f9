import type { Db } from '@atelier/db';
import { createSecretBox } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { Runtime } from '@atelier/runtime';
import { createAnalyticsService } from './analytics/analytics-service';
import { createAccountService } from './auth/account-service';
import { createSessionService, type AccessClaims } from './auth/session-service';
import { createChatbotsService } from './chatbots/chatbots-service';
import { createConversationsService } from './chat/conversations-service';
import { noKnowledge } from './chat/knowledge-seam';
import { createSimpleChat } from './chat/simple-chat';
import { createCreditsService } from './credits/credits-service';
import type { Mailer } from './mail/mailer';
import { createInvokeService } from './providers/invoke-service';
import { createModelsService } from './providers/models-service';
import { createProvidersService } from './providers/providers-service';
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
  onMailError(error: unknown): void;
  encryptionKey: Buffer;
  providerUrlPolicy: UrlPolicy;
  runtime: Runtime;
}

/** Wires the services together; they know nothing of HTTP. */
export function createServices(deps: ServiceDeps) {
  const sessions = createSessionService(deps);
  const accounts = createAccountService({ ...deps, sessions });
  const workspaces = createWorkspacesService({ db: deps.db });
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
  const models = createModelsService({ db: deps.db, workspaces, providers });
  const conversations = createConversationsService({ db: deps.db });
  const chatbots = createChatbotsService({ db: deps.db, workspaces, providers });
  return {
    modelAccess,
    analytics: createAnalyticsService({ db: deps.db }),
    sessions,
    accounts,
    users: createUsersService({ db: deps.db, accounts }),
    workspaces,
    credits,
    providers,
    models,
    invoke: createInvokeService({ db: deps.db, models, providers, credits, workspaces }),
    chatbots,
    runs: createRunsService({ db: deps.db, runtime: deps.runtime, chatbots, workspaces, credits }),
    conversations,
    simpleChat: createSimpleChat({ db: deps.db, conversations, providers, credits, knowledge: noKnowledge }),
  };
}

export type Services = ReturnType<typeof createServices>;
