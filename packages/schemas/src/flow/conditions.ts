import { z } from 'zod';

export const conditionOperators = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_empty',
  'is_not_empty',
  'is_true',
  'is_false',
  'length_eq',
  'length_gt',
  'length_gte',
  'length_lt',
  'length_lte',
  'in',
  'not_in',
] as const;
export const conditionOperator = z.enum(conditionOperators);
export type ConditionOperator = z.infer<typeof conditionOperator>;

/** Operators that only look at the left value. */
export const UNARY_OPERATORS: ReadonlySet<ConditionOperator> = new Set([
  'is_empty',
  'is_not_empty',
  'is_true',
  'is_false',
]);

export const condition = z.object({
  /** Usually a reference such as {{#input_ab12.query#}}; resolved with its own type. */
  left: z.unknown(),
  operator: conditionOperator,
  right: z.unknown().optional(),
});
export type Condition = z.infer<typeof condition>;

/** The handle of the branch taken when no other branch matches. */
export const ELSE_HANDLE = 'else';

export const conditionBranch = z.object({
  /** The branch's output handle: edges leaving this branch carry it as sourceHandle. */
  id: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z0-9_]+$/, { error: 'A branch id holds letters, digits and underscores' })
    .refine((id) => id !== ELSE_HANDLE, { error: `"${ELSE_HANDLE}" is kept for the last branch` }),
  label: z.string().max(100).optional(),
  /** How the conditions combine; a branch without conditions never matches. */
  logic: z.enum(['and', 'or']).default('and'),
  conditions: z
    .array(condition)
    .max(50)
    .default(() => []),
});
export type ConditionBranch = z.infer<typeof conditionBranch>;

/** The if, elif… branches in order; the else branch is implicit and always last. */
export const conditionBranches = z
  .array(conditionBranch)
  .min(1)
  .max(20)
  .refine((branches) => new Set(branches.map((b) => b.id)).size === branches.length, {
    error: 'Branch ids must be unique',
  });

/** The output handles of a conditional node, in order: one per branch, then else. */
export const branchHandles = (branches: readonly { id: string }[]): string[] => [
  ...branches.map((b) => b.id),
  ELSE_HANDLE,
];
