import { chatbotAccess, userWorkspaceRoles, type Db } from '@atelier/db';
import { and, eq } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { ChatbotRow } from './chatbot-view';

/**
 * Who may use a chatbot (spec section 6): organization admins, and creators who are members of its
 * workspace, reach every chatbot of it; everyone else only the chatbots granted to them.
 */
export async function hasChatbotAccess(db: Db, principal: Principal, chatbot: ChatbotRow): Promise<boolean> {
  if (chatbot.organizationId !== principal.organizationId) return false;
  if (principal.role === 'admin') return true;
  if (principal.role === 'creator') {
    const [member] = await db
      .select({ role: userWorkspaceRoles.workspaceRoleId })
      .from(userWorkspaceRoles)
      .where(
        and(
          eq(userWorkspaceRoles.userId, principal.userId),
          eq(userWorkspaceRoles.workspaceId, chatbot.workspaceId),
        ),
      )
      .limit(1);
    if (member) return true;
  }
  const [grant] = await db
    .select({ userId: chatbotAccess.userId })
    .from(chatbotAccess)
    .where(and(eq(chatbotAccess.chatbotId, chatbot.id), eq(chatbotAccess.userId, principal.userId)))
    .limit(1);
  return Boolean(grant);
}
