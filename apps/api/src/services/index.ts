import type { Db } from '@atelier/db';
import { createAccountService } from './auth/account-service';
import { createSessionService, type AccessClaims } from './auth/session-service';
import { createCreditsService } from './credits/credits-service';
import type { Mailer } from './mail/mailer';
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
}

/** Wires the services together; they know nothing of HTTP. */
export function createServices(deps: ServiceDeps) {
  const sessions = createSessionService(deps);
  const accounts = createAccountService({ ...deps, sessions });
  return {
    sessions,
    accounts,
    users: createUsersService({ db: deps.db, accounts }),
    workspaces: createWorkspacesService({ db: deps.db }),
    credits: createCreditsService({ db: deps.db }),
  };
}

export type Services = ReturnType<typeof createServices>;
