// Kept free of zod so that the web app's first pages can check passwords without loading it.

export const PASSWORD_MIN_LENGTH = 8;
/** The spec's policy, rule by rule (the web app shows each as a checklist item). */
export const PASSWORD_RULES = [
  {
    id: 'length',
    text: `at least ${PASSWORD_MIN_LENGTH} characters`,
    test: (v: string) => v.length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'uppercase', text: 'an uppercase letter', test: (v: string) => /[A-Z]/.test(v) },
  { id: 'lowercase', text: 'a lowercase letter', test: (v: string) => /[a-z]/.test(v) },
  { id: 'number', text: 'a number', test: (v: string) => /[0-9]/.test(v) },
  { id: 'special', text: 'a special character', test: (v: string) => /[^A-Za-z0-9]/.test(v) },
] as const;

/** What the password still lacks: 8+ characters, an uppercase, a lowercase, a digit and a special character. */
export function passwordProblems(value: string): string[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(value)).map((rule) => rule.text);
}
