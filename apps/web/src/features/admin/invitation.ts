import type { InvitationAnswer } from '@atelier/schemas';
import type { TFunction } from 'i18next';

/**
 * What an invitation became: mailed (a mail server is set), or written to the server log, whose link
 * the admin is given to share (no mail server); nothing when the user was given a password.
 */
export function invitationText(t: TFunction, answer: InvitationAnswer, email: string): string | undefined {
  if (answer.invitation_url) return t('invitation.logged', { email });
  if (answer.invitation_mailed) return t('invitation.mailed', { email });
  return undefined;
}
