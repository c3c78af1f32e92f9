import type { ValidationProblem } from '@atelier/schemas';

/**
 * A request that failed its zod schema, described field by field: `{field, code, params, message}` for a
 * client to put in its own words (the web app translates by code), and one plain English sentence for
 * `detail`. Codes: required, too_short, too_long, too_small, too_big, too_few, too_many, invalid_format,
 * invalid_type, invalid_value, unknown_field, weak_password, invalid.
 */
/** One entry of Fastify's `error.validation` as fastify-type-provider-zod builds it from a zod issue. */
interface ZodValidationEntry {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

const SIZE_CODES: Record<string, Record<string, string>> = {
  too_small: { string: 'too_short', array: 'too_few', set: 'too_few' },
  too_big: { string: 'too_long', array: 'too_many', set: 'too_many' },
};

function describe(where: string, entry: ZodValidationEntry): ValidationProblem[] {
  const field = entry.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = entry.params ?? {};
  const message = entry.message ?? 'is not valid';
  const base = { in: where, field, message };
  const custom = params.params as { code?: unknown } | undefined;
  switch (entry.keyword) {
    case 'unrecognized_keys': {
      const keys = Array.isArray(params.keys) ? params.keys.map(String) : [];
      return keys.map((key) => ({
        ...base,
        field: field ? `${field}.${key}` : key,
        code: 'unknown_field',
        params: {},
        message: 'is not a known field',
      }));
    }
    case 'too_small':
    case 'too_big': {
      const origin = String(params.origin ?? '');
      const limit = entry.keyword === 'too_small' ? params.minimum : params.maximum;
      // A required text is a string of at least one character.
      if (entry.keyword === 'too_small' && origin === 'string' && Number(limit) === 1) {
        return [{ ...base, code: 'required', params: {} }];
      }
      const code = SIZE_CODES[entry.keyword]![origin] ?? entry.keyword;
      return [{ ...base, code, params: { limit: typeof limit === 'bigint' ? Number(limit) : limit } }];
    }
    case 'invalid_type':
      return /received undefined/.test(message)
        ? [{ ...base, code: 'required', params: {} }]
        : [{ ...base, code: 'invalid_type', params: { expected: params.expected } }];
    case 'invalid_format':
      return [{ ...base, code: 'invalid_format', params: { format: params.format } }];
    case 'invalid_value':
      return [{ ...base, code: 'invalid_value', params: { values: params.values } }];
    case 'custom':
      if (typeof custom?.code === 'string') {
        const { code, ...rest } = custom as Record<string, unknown>;
        return [{ ...base, code: code as string, params: rest }];
      }
      return [{ ...base, code: 'invalid', params: {} }];
    default:
      return [{ ...base, code: 'invalid', params: {} }];
  }
}

/** The problems of a failed validation, in the order the schema found them. */
export function validationProblems(
  where: string,
  entries: readonly ZodValidationEntry[],
): ValidationProblem[] {
  return entries.flatMap((entry) => describe(where, entry));
}

// Zod's own sentences ("Too small: expected string to have >=3 characters") are replaced by plain ones;
// a schema's own sentence ("must be a valid email address") is kept.
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Invalid (string|number|date|email|url|uuid)|Too (small|big)|Unrecognized key)/;

function plain(p: ValidationProblem): string {
  if (p.code === 'unknown_field') return p.message;
  if (!ZOD_DEFAULT.test(p.message) && p.message) return p.message.replace(/\.$/, '');
  const limit = String(p.params.limit ?? '');
  switch (p.code) {
    case 'required':
      return 'is required';
    case 'too_short':
      return `must be at least ${limit} characters`;
    case 'too_long':
      return `must be at most ${limit} characters`;
    case 'too_small':
      return `must be at least ${limit}`;
    case 'too_big':
      return `must be at most ${limit}`;
    case 'too_few':
      return `needs at least ${limit} items`;
    case 'too_many':
      return `takes at most ${limit} items`;
    case 'invalid_type':
      return `must be a ${String(p.params.expected ?? 'value of another type')}`;
    case 'invalid_value':
      return Array.isArray(p.params.values)
        ? `must be one of ${p.params.values.map(String).join(', ')}`
        : 'is not an accepted value';
    case 'invalid_format':
      return `is not a valid ${String(p.params.format ?? 'value')}`;
    default:
      return 'is not valid';
  }
}

/** What a person reads: "Please check the request: email must be a valid email address; name is required." */
export function validationDetail(problems: readonly ValidationProblem[]): string {
  const sentences = problems.map((p) => {
    const what = plain(p);
    if (!p.field) return what;
    // A full sentence of the schema ("You must accept …") follows a colon; a predicate follows the name.
    return /^[A-Z]/.test(what) ? `${p.field}: ${what}` : `${p.field} ${what}`;
  });
  return `Please check the request: ${sentences.join('; ')}.`;
}
