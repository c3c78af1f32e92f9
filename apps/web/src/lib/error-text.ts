import type { ValidationProblem } from '@atelier/schemas';
import i18next from 'i18next';

/**
 * An API failure in the reader's language. A failed validation is said field by field
 * (`validation.codes.<code>` with the field's translated name); a code with a fixed meaning has its own
 * sentence (`apiErrors.<code>`); anything else keeps the server's `detail`, which names the specifics.
 */
export function apiErrorText(error: {
  code: string;
  detail: string;
  problems: readonly ValidationProblem[];
}) {
  if (error.problems.length > 0) return error.problems.map(problemText).join(' ');
  const key = `apiErrors.${error.code}`;
  return i18next.exists(key) ? i18next.t(key) : error.detail;
}

/** A field's name for people: its translation when there is one, else its path, made readable. */
export function fieldName(field: string): string {
  const last = field.split('.').at(-1) ?? field;
  const key = `validation.fields.${last}`;
  if (i18next.exists(key)) return i18next.t(key);
  return last
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** One problem of a failed validation, as a sentence. */
export function problemText(problem: ValidationProblem): string {
  const field = problem.field ? fieldName(problem.field) : i18next.t('validation.theRequest');
  const values = { ...problem.params, field, limit: problem.params.limit };
  // A field whose every problem means one thing (a box to tick) has its own sentence.
  const own = `validation.byField.${problem.field}`;
  if (problem.field && i18next.exists(own)) return i18next.t(own);
  if (problem.code === 'weak_password' && Array.isArray(problem.params.missing)) {
    const missing = problem.params.missing
      .map((id) => i18next.t(`password.rules.${String(id)}`).toLowerCase())
      .join(', ');
    return i18next.t('validation.codes.weak_password', { missing });
  }
  if (problem.code === 'invalid_format') {
    const format = `validation.formats.${String(problem.params.format)}`;
    if (i18next.exists(format)) return i18next.t(format, values);
  }
  if (problem.code === 'invalid_value' && Array.isArray(problem.params.values)) {
    return i18next.t('validation.codes.invalid_value', {
      ...values,
      values: problem.params.values.map(String).join(', '),
    });
  }
  const key = `validation.codes.${problem.code}`;
  return i18next.exists(key) ? i18next.t(key, values) : i18next.t('validation.codes.invalid', values);
}

/** The problems of a failed validation by field (the first one each), for forms that show them in place. */
export function problemsByField(problems: readonly ValidationProblem[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const problem of problems) byField[problem.field] ??= problemText(problem);
  return byField;
}
