import { z } from 'zod';
import { name, uuid } from './common';

/** What a key starts with, so that it is recognised (and refused from anywhere a JWT is expected). */
export const API_KEY_PREFIX = 'atl_';

/** A chatbot's API key as listed: never the key itself, only its first characters. */
export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;
export const apiKeysAnswer = z.object({ api_keys: z.array(apiKey) });

export const createApiKeyBody = z.object({ name: name(100) }).strict();
/** The answer to a creation: the only time the key itself is shown. */
export const createdApiKey = apiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

export const apiKeyParams = z.object({ id: uuid, key_id: uuid }).strict();
