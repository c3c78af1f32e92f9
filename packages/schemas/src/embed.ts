import { z } from 'zod';
import { historyAnswer, conversationsAnswer } from './chat';
import { uuid } from './common';
import { isExactOrigin, MAX_EMBED_ORIGINS } from './constants/embed';

export const embedOrigin = z
  .string()
  .trim()
  .max(200, { error: 'An origin is at most 200 characters.' })
  .refine(isExactOrigin, {
    error: 'Write an origin as scheme and host, like https://shop.example.com (no path, no trailing slash).',
  });

export const embedToken = z
  .string()
  .regex(/^emb_[A-Za-z0-9_-]{20,64}$/, { error: 'This is not an embed token.' });
export const embedTokenParams = z.object({ token: embedToken }).strict();
export const embedConversationParams = z.object({ token: embedToken, id: uuid }).strict();

/** A browser's random id (kept in its localStorage), sent as `?user=` on every embed call. */
export const embedUserQuery = z
  .object({
    user: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, {
      error: 'user must be the browser id (8 to 64 letters, digits, - or _).',
    }),
  })
  .strict();

const shortText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `must be at most ${max} characters` });

/** A chatbot's embed settings, as its builders see them. */
export const embedSettings = z.object({
  chatbot_id: z.string(),
  enabled: z.boolean(),
  allowed_origins: z.array(z.string()),
  token: z.string(),
  greeting: z.string(),
  placeholder: z.string(),
  /** The `src` of the script tag: the API's public address + /embed.js. */
  script_url: z.string(),
  /** The page to put in an iframe. */
  frame_url: z.string(),
  updated_at: z.string(),
});
export type EmbedSettings = z.infer<typeof embedSettings>;
export const embedSettingsAnswer = z.object({ embed: embedSettings });

export const updateEmbedBody = z
  .object({
    enabled: z.boolean().optional(),
    allowed_origins: z
      .array(embedOrigin)
      .max(MAX_EMBED_ORIGINS, { error: `At most ${MAX_EMBED_ORIGINS} origins.` })
      .refine((list) => new Set(list).size === list.length, { error: 'An origin is listed twice.' })
      .optional(),
    greeting: shortText(500).optional(),
    placeholder: shortText(120).optional(),
  })
  .strict();
export type UpdateEmbedBody = z.infer<typeof updateEmbedBody>;

/** What the widget needs to draw itself. */
export const embedConfig = z.object({
  chatbot: z.object({ name: z.string(), type: z.enum(['simple', 'chatflow']) }),
  greeting: z.string(),
  placeholder: z.string(),
});
export type EmbedConfig = z.infer<typeof embedConfig>;

export const embedMessageBody = z
  .object({
    message: z
      .string()
      .trim()
      .min(1, { error: 'Write a message.' })
      .max(8_000, { error: 'A message is at most 8000 characters.' }),
    /** Continues this conversation (one of this browser's); a new one begins without it. */
    conversation_id: uuid.optional(),
  })
  .strict();
export type EmbedMessageBody = z.infer<typeof embedMessageBody>;

export const embedConversationsAnswer = conversationsAnswer;
export const embedHistoryAnswer = historyAnswer;
