import type { AppRoleId } from '@atelier/schemas';

/** Who is calling: resolved from the access token and the user's current row on every request. */
export interface Principal {
  userId: string;
  organizationId: string;
  role: AppRoleId;
  email: string;
}
