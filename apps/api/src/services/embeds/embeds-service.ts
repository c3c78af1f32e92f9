import { randomBytes } from 'node:crypto';
import { chatbotEmbeds, chatbots, type Db } from '@atelier/db';
import type { EmbedSettings, UpdateEmbedBody } from '@atelier/schemas';
import { EMBED_TOKEN_PREFIX } from '@atelier/schemas/constants';
import { eq, sql } from 'drizzle-orm';
import type { EmbedPrincipal, Principal } from '../auth/principal';
import type { ChatbotsService } from '../chatbots/chatbots-service';
import { AppError } from '../errors';

type EmbedRow = typeof chatbotEmbeds.$inferSelect;

/** 32 random bytes, base64url: unguessable, and no secret beyond that (it is in the embedding page). */
const mintToken = () => `${EMBED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** An embed token as found, with its chatbot's state: what the CORS rule and the embed routes need. */
export interface FoundEmbed {
  organizationId: string;
  chatbotId: string;
  token: string;
  enabled: boolean;
  allowedOrigins: string[];
  published: boolean;
  chatbotName: string;
  chatbotType: 'simple' | 'chatflow' | 'workflow';
  greeting: string;
  placeholder: string;
}

export const embedNotFound = () =>
  new AppError(
    404,
    'embed_not_found',
    'This chat is not available: its embed token is unknown or was replaced.',
  );

/**
 * A chatbot's embeddable chat: its settings, managed by the builders of its workspace (a row made on
 * first read, off and with no allowed origin), and its token resolved on each embed request.
 */
export function createEmbedsService(deps: { db: Db; chatbots: ChatbotsService; publicApiUrl: string }) {
  const { db } = deps;

  const byToken = db
    .select({
      embed: chatbotEmbeds,
      published: chatbots.isPublished,
      name: chatbots.name,
      type: chatbots.type,
    })
    .from(chatbotEmbeds)
    .innerJoin(chatbots, eq(chatbots.id, chatbotEmbeds.chatbotId))
    .where(eq(chatbotEmbeds.token, sql.placeholder('token')))
    .limit(1)
    .prepare('embed_by_token');

  const view = (row: EmbedRow): EmbedSettings => ({
    chatbot_id: row.chatbotId,
    enabled: row.enabled,
    allowed_origins: row.allowedOrigins,
    token: row.token,
    greeting: row.greeting,
    placeholder: row.placeholder,
    script_url: `${deps.publicApiUrl}/embed.js`,
    frame_url: `${deps.publicApiUrl}/embed/${row.token}`,
    updated_at: row.updatedAt.toISOString(),
  });

  async function rowOf(organizationId: string, chatbotId: string): Promise<EmbedRow> {
    await db
      .insert(chatbotEmbeds)
      .values({ chatbotId, organizationId, token: mintToken() })
      .onConflictDoNothing({ target: chatbotEmbeds.chatbotId });
    const [row] = await db
      .select()
      .from(chatbotEmbeds)
      .where(eq(chatbotEmbeds.chatbotId, chatbotId))
      .limit(1);
    if (!row) throw new Error('embed row missing after insert');
    return row;
  }

  async function write(principal: Principal, chatbotId: string, values: Partial<EmbedRow>) {
    const bot = await deps.chatbots.forBuilder(principal, chatbotId);
    await rowOf(principal.organizationId, bot.id);
    const [row] = await db
      .update(chatbotEmbeds)
      .set({ ...values, updatedBy: principal.userId, updatedAt: new Date() })
      .where(eq(chatbotEmbeds.chatbotId, bot.id))
      .returning();
    if (!row) throw new Error('embed row missing on update');
    return view(row);
  }

  return {
    async get(principal: Principal, chatbotId: string): Promise<EmbedSettings> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId, false);
      return view(await rowOf(principal.organizationId, bot.id));
    },

    async update(principal: Principal, chatbotId: string, body: UpdateEmbedBody): Promise<EmbedSettings> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId);
      const current = await rowOf(principal.organizationId, bot.id);
      const enabled = body.enabled ?? current.enabled;
      const origins = body.allowed_origins ?? current.allowedOrigins;
      if (enabled && origins.length === 0) {
        throw new AppError(
          422,
          'embed_origins_required',
          'Add at least one allowed origin (the site that shows the chat) before turning the embed on.',
        );
      }
      if (enabled && bot.type === 'workflow') {
        throw new AppError(
          422,
          'wrong_chatbot_type',
          'A workflow has no chat to embed: call it through the public API instead.',
        );
      }
      return write(principal, chatbotId, {
        enabled,
        allowedOrigins: origins,
        ...(body.greeting === undefined ? {} : { greeting: body.greeting }),
        ...(body.placeholder === undefined ? {} : { placeholder: body.placeholder }),
      });
    },

    /** A new token; the old one is refused from now on (pages that still carry it show an error). */
    regenerate: (principal: Principal, chatbotId: string) =>
      write(principal, chatbotId, { token: mintToken() }),

    /** The embed behind a token, whatever its state (the page and the CORS rule need it even when off). */
    async find(token: string): Promise<FoundEmbed | null> {
      if (!token.startsWith(EMBED_TOKEN_PREFIX)) return null;
      const [found] = await byToken.execute({ token });
      if (!found) return null;
      const { embed } = found;
      return {
        organizationId: embed.organizationId,
        chatbotId: embed.chatbotId,
        token: embed.token,
        enabled: embed.enabled,
        allowedOrigins: embed.allowedOrigins,
        published: found.published,
        chatbotName: found.name,
        chatbotType: found.type,
        greeting: embed.greeting,
        placeholder: embed.placeholder,
      };
    },

    /**
     * The caller of an embed route, or a refusal: unknown token 404; a page of a site not allowed
     * 403; embed off 403; chatbot unpublished 409. `sameSite`: the request comes from the API's own
     * origin (the iframe page) or names none (not a browser page).
     */
    authenticate(found: FoundEmbed | null, origin: string | undefined, sameSite: boolean): EmbedPrincipal {
      if (!found) throw embedNotFound();
      if (origin && !sameSite && !found.allowedOrigins.includes(origin)) {
        throw new AppError(
          403,
          'origin_not_allowed',
          `This chat may not be used from ${origin}: add that origin to the chatbot's allowed origins in the Studio's embed guide.`,
        );
      }
      if (!found.enabled) {
        throw new AppError(403, 'embed_disabled', 'This chat is turned off by its owner.');
      }
      if (!found.published) {
        throw new AppError(409, 'chatbot_unpublished', 'This assistant is not published yet.');
      }
      return { organizationId: found.organizationId, chatbotId: found.chatbotId, token: found.token };
    },
  };
}

export type EmbedsService = ReturnType<typeof createEmbedsService>;
