import { z } from 'zod';
import { languages } from './constants';

/** Every error the API answers has this shape; `detail` is a sentence a person can act on. */
export const errorBody = z.object({
  detail: z.string(),
  code: z.string(),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const messageBody = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageBody>;

export const uuid = z.uuid({ error: 'must be a valid id' });
export const idParams = z.object({ id: uuid }).strict();

/** Trimmed, non-empty text of bounded length. */
export const name = (max = 120) =>
  z
    .string()
    .trim()
    .min(1, { error: 'This field is required' })
    .max(max, { error: `must be at most ${max} characters` });

export const language = z.enum(languages);
