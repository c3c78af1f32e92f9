import { z } from 'zod';
import { languages } from './constants';

/** Every error the API answers has this shape; `detail` is a sentence a person can act on. */
/** One field a request got wrong (422 `validation_error`), for a client to say in its own words. */
export const validationProblem = z.object({
  /** `body`, `params`, `querystring` or `headers`. */
  in: z.string(),
  /** The field's dotted path in that part; '' for the part as a whole. */
  field: z.string(),
  /** required, too_short, too_long, too_small, too_big, too_few, too_many, invalid_format, invalid_type,
   * invalid_value, unknown_field, weak_password or invalid. */
  code: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** The schema's own sentence, in English. */
  message: z.string(),
});
export type ValidationProblem = z.infer<typeof validationProblem>;

export const errorBody = z.object({
  detail: z.string(),
  code: z.string(),
  /** A failed validation's problems, field by field. */
  errors: z.array(validationProblem).optional(),
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
