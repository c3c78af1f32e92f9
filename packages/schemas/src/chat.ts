import { z } from 'zod';
import { chatbotType } from './chatbots';
import { inputFieldTypes, messageFeedbacks, messageRoles } from './constants';

export const inputFieldType = z.enum(inputFieldTypes);

export const inputField = z.object({ name: z.string(), type: inputFieldType, is_mandatory: z.boolean() });
export const inputFieldsAnswer = z.object({
  has_additional_inputs: z.boolean(),
  input_fields: z.array(inputField),
});

export const conversation = z.object({
  id: z.string(),
  title: z.string(),
  chatbot_id: z.string(),
  chatbot_type: chatbotType,
  updated_at: z.string(),
  last_message_preview: z.string(),
});
export type Conversation = z.infer<typeof conversation>;
export const conversationsAnswer = z.object({ conversations: z.array(conversation) });

const textPart = z.object({ type: z.literal('text'), text: z.string().max(200_000) });
/** A data: URL (jpeg, png, gif or webp) or an http(s) URL. */
const imagePart = z.object({ type: z.literal('image'), url: z.string().max(15_000_000) });

/** Where a passage of an answer's context came from: shown under the answer. */
export const answerSource = z.object({
  collection_id: z.string(),
  collection_name: z.string(),
  document_id: z.string().nullable(),
  filename: z.string().nullable(),
  chunk_index: z.number().int().nullable(),
  /** The PDF page the passage is on, when known. */
  page: z.number().int().positive().optional(),
  /** The spreadsheet sheet the passage is from, when known. */
  sheet: z.string().optional(),
  /** The presentation slide the passage is on, when known. */
  slide: z.number().int().positive().optional(),
  /** The book chapter (its title) the passage is in, when known. */
  chapter: z.string().optional(),
  /** The email attachment (its file name) the passage is from, when it is from one. */
  attachment: z.string().optional(),
  score: z.number(),
  /** The passage's first characters. */
  excerpt: z.string(),
});
export type AnswerSource = z.infer<typeof answerSource>;
/** An assistant answer's sources, stored with it (never sent by clients). */
const sourcesPart = z.object({ type: z.literal('sources'), sources: z.array(answerSource).max(50) });

/** What a client sends: text and images. */
export const inputPart = z.discriminatedUnion('type', [textPart, imagePart]);
export type InputPart = z.infer<typeof inputPart>;
/** What a stored message holds: a client's parts, and an answer's sources. */
export const messagePart = z.discriminatedUnion('type', [textPart, imagePart, sourcesPart]);
export type MessagePart = z.infer<typeof messagePart>;

export const historyMessage = z.object({
  id: z.string(),
  role: z.enum(messageRoles),
  content: z.array(messagePart),
  error: z.boolean(),
  /** The person's thumbs up or down on an answer. */
  feedback: z.enum(messageFeedbacks).nullable(),
  created_at: z.string(),
});

/** Rate an answer; null takes the rating back. */
export const messageFeedbackBody = z.object({ rating: z.enum(messageFeedbacks).nullable() }).strict();
export const messageFeedbackParams = z.object({ id: z.uuid(), messageId: z.uuid() }).strict();
export const historyAnswer = z.object({ history: z.array(historyMessage) });

export const createConversationBody = z
  .object({ title: z.string().trim().max(200).default(''), chatbot_id: z.uuid() })
  .strict();
export const renameConversationBody = z.object({ title: z.string().trim().min(1).max(200) }).strict();

/** The simple chatbot's streaming POST: the conversation so far, the last message being the new one. */
export const simpleMessageBody = z
  .object({
    messages: z
      .array(
        z.object({
          role: z.enum(['user', 'assistant', 'system']),
          content: z.union([z.string().max(200_000), z.array(inputPart).max(20)]),
        }),
      )
      .min(1)
      .max(500),
    /**
     * Regenerate or Retry: the last message is the last question asked again. Its earlier answer is
     * replaced and the question not stored twice (when it is the conversation's last stored question).
     */
    regenerate: z.boolean().optional(),
  })
  .strict();
export type SimpleMessageBody = z.infer<typeof simpleMessageBody>;

/**
 * The simple chatbot stream, written once for server and client. Each event is one SSE `data:` line
 * holding JSON, followed by a blank line; the stream ends with the line `data: [DONE]`.
 */
export const simpleStreamEvent = z.discriminatedUnion('type', [
  /** First event: where the answer is stored. */
  z.object({ type: z.literal('start'), conversation_id: z.string(), message_id: z.string() }),
  z.object({ type: z.literal('text'), text: z.string() }),
  /** The passages the answer draws on (chatbots with knowledge collections), before its first text. */
  z.object({ type: z.literal('sources'), sources: z.array(answerSource) }),
  /** Every 15 seconds while nothing else is sent; clients ignore it. */
  z.object({ type: z.literal('heartbeat') }),
  /** The inference-error marker: the answer failed; status 504 means it timed out. */
  z.object({ type: z.literal('inference_error'), message: z.string(), code: z.string(), status: z.number() }),
  /** Last event before [DONE] when the answer completed. */
  z.object({ type: z.literal('end'), fallback: z.boolean() }),
]);
export type SimpleStreamEvent = z.infer<typeof simpleStreamEvent>;
