import { z } from 'zod';
import { answerSource, historyAnswer, conversationsAnswer, inputPart } from './chat';
import { uuid } from './common';
import { inputValues, run, runStatus } from './runs';

/**
 * The public API (`/v1`), called by other systems with a chatbot's API key. Two families: an
 * OpenAI-compatible chat completion (any OpenAI client can talk to a chatbot), and native calls that
 * speak Atelier's own events. Each end user is named by the `user` string the integrator sends.
 */
export const endUser = z
  .string()
  .trim()
  .min(1, { error: 'Name the end user with `user`.' })
  .max(200, { error: 'must be at most 200 characters' });

// --- OpenAI-compatible -------------------------------------------------------------------------------

const openAiPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(200_000) }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string().max(15_000_000), detail: z.string().max(10).optional() }),
  }),
]);
export type OpenAiPart = z.infer<typeof openAiPart>;

export const openAiMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string().max(200_000), z.array(openAiPart).max(20), z.null()]).optional(),
  name: z.string().max(200).optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessage>;

/** Scalars OpenAI's `metadata` carries; a workflow takes them as its input fields. */
const metadataValues = z.record(
  z.string().max(64),
  z.union([z.string().max(200_000), z.number(), z.boolean()]),
);

/**
 * OpenAI's chat completion request. `model` is the chatbot's id. Sampling parameters (temperature,
 * max_tokens, tools…) are accepted and ignored: the chatbot's own configuration decides.
 */
export const chatCompletionBody = z.object({
  model: z.string().max(200),
  messages: z.array(openAiMessage).min(1).max(500),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  user: endUser.optional(),
  metadata: metadataValues.nullish(),
  n: z.literal(1).nullish(),
});
export type ChatCompletionBody = z.infer<typeof chatCompletionBody>;

export const completionUsage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type CompletionUsage = z.infer<typeof completionUsage>;

/**
 * Where a passage of the answer's context came from, as Azure OpenAI's "On your data" names it
 * (`message.context.citations`, read by clients built for it), with Atelier's own fields beside.
 */
export const openAiCitation = z.object({
  /** The passage's first characters. */
  content: z.string(),
  /** The document's file name, or the collection's name when the passage has no document. */
  title: z.string(),
  filepath: z.string().nullable(),
  url: z.null(),
  chunk_id: z.string().nullable(),
  /** Atelier's own: the similarity score, the collection and the document. */
  score: z.number(),
  collection_id: z.string(),
  collection_name: z.string(),
  document_id: z.string().nullable(),
});
export type OpenAiCitation = z.infer<typeof openAiCitation>;
/** The knowledge behind an answer (present only when the chatbot's knowledge found passages). */
export const openAiContext = z.object({ citations: z.array(openAiCitation) });

export const chatCompletion = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string(),
        refusal: z.null(),
        context: openAiContext.optional(),
      }),
      finish_reason: z.literal('stop'),
      logprobs: z.null(),
    }),
  ),
  usage: completionUsage,
  /** Atelier's own: where the exchange is stored. */
  conversation_id: z.string(),
});
export type ChatCompletion = z.infer<typeof chatCompletion>;

export const modelList = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      id: z.string(),
      object: z.literal('model'),
      created: z.number().int(),
      owned_by: z.string(),
      /** Atelier's own: the chatbot's name and type. */
      name: z.string(),
      chatbot_type: z.enum(['simple', 'chatflow', 'workflow']),
    }),
  ),
});

/** Errors of the OpenAI-compatible routes also carry OpenAI's shape, beside Atelier's `{detail, code}`. */
export const openAiErrorBody = z.object({
  detail: z.string(),
  code: z.string(),
  error: z.object({
    message: z.string(),
    type: z.string(),
    code: z.string(),
    param: z.string().nullable(),
  }),
});

// --- Native ------------------------------------------------------------------------------------------

export const publicMessageBody = z
  .object({
    user: endUser,
    /** The end user's message: text, or text and image parts. */
    message: z.union([z.string().max(200_000), z.array(inputPart).min(1).max(20)]),
    /** A chatflow's or workflow's additional input fields. */
    inputs: inputValues.default({}),
    /** Continues this conversation (one of this user's); a new one is started without it. */
    conversation_id: uuid.optional(),
    /** true (default): the answer streams as server-sent events; false: one JSON answer at the end. */
    stream: z.boolean().default(true),
  })
  .strict();
export type PublicMessageBody = z.infer<typeof publicMessageBody>;

export const publicMessageAnswer = z.object({
  conversation_id: z.string(),
  /** The assistant's answer (a flow's final output). */
  answer: z.string(),
  /** The flow run that answered (chatflows and workflows). */
  run_id: z.string().nullable(),
  status: z.enum(['succeeded', 'failed', 'cancelled']),
  error: z.string().nullable(),
  /** Where the answer's context came from: the passages its knowledge collections gave, best first. */
  sources: z.array(answerSource),
});
export type PublicMessageAnswer = z.infer<typeof publicMessageAnswer>;

export const publicRunBody = z
  .object({
    user: endUser,
    inputs: inputValues.default({}),
    /** true: the answer is the run's event stream; false (default): 201 with the run id at once. */
    stream: z.boolean().default(false),
  })
  .strict();
export const publicRunAnswer = z.object({
  run_id: z.string(),
  conversation_id: z.string(),
  status: runStatus,
});
export const publicRun = run.omit({ started_by: true, config_version: true });
export const endUserQuery = z.object({ user: endUser }).strict();
export const endUserBody = z.object({ user: endUser }).strict();
export const publicEventsQuery = z
  .object({ user: endUser, last_event_id: z.string().max(64).optional() })
  .strict();
export const publicConversationsAnswer = conversationsAnswer;
export const publicHistoryAnswer = historyAnswer;
