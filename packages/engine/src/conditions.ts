import { type Condition, type ConditionBranch, ELSE_HANDLE } from '@atelier/schemas';
import { stringifyValue } from './references';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function asNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return NaN;
}

const booleanText = (s: string): boolean | undefined => {
  const t = s.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : undefined;
};

/** Loose equality: numbers with numeric text, booleans with "true"/"false", the rest by JSON. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = asNumber(a);
    const y = asNumber(b);
    if (!Number.isNaN(x) && !Number.isNaN(y)) return x === y;
  }
  if (typeof a === 'boolean' && typeof b === 'string') return booleanText(b) === a;
  if (typeof b === 'boolean' && typeof a === 'string') return booleanText(a) === b;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  if ((a === null || a === undefined) && (b === null || b === undefined || b === '')) return true;
  return stringifyValue(a) === stringifyValue(b);
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (isRecord(v)) return Object.keys(v).length === 0;
  return false;
}

function lengthOf(v: unknown): number {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (isRecord(v)) return Object.keys(v).length;
  return v === null || v === undefined ? 0 : stringifyValue(v).length;
}

/** A list from a value written in a text field: JSON list, or comma-separated items. */
function asList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') {
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        const parsed = JSON.parse(s) as unknown;
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // Fall through to comma separation.
      }
    }
    return s === '' ? [] : s.split(',').map((x) => x.trim());
  }
  return v === null || v === undefined ? [] : [v];
}

function contains(container: unknown, needle: unknown): boolean {
  if (Array.isArray(container)) return container.some((item) => same(item, needle));
  if (isRecord(container)) return typeof needle === 'string' && Object.hasOwn(container, needle);
  if (container === null || container === undefined) return false;
  return stringifyValue(container).includes(stringifyValue(needle));
}

function compare(a: unknown, b: unknown, test: (x: number, y: number) => boolean): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  return !Number.isNaN(x) && !Number.isNaN(y) && test(x, y);
}

export function evaluateCondition({ left, operator, right }: Condition): boolean {
  switch (operator) {
    case 'equals':
      return same(left, right);
    case 'not_equals':
      return !same(left, right);
    case 'contains':
      return contains(left, right);
    case 'not_contains':
      return !contains(left, right);
    case 'starts_with':
      return stringifyValue(left).startsWith(stringifyValue(right));
    case 'ends_with':
      return stringifyValue(left).endsWith(stringifyValue(right));
    case 'gt':
      return compare(left, right, (x, y) => x > y);
    case 'gte':
      return compare(left, right, (x, y) => x >= y);
    case 'lt':
      return compare(left, right, (x, y) => x < y);
    case 'lte':
      return compare(left, right, (x, y) => x <= y);
    case 'is_empty':
      return isEmpty(left);
    case 'is_not_empty':
      return !isEmpty(left);
    case 'is_true':
      return (
        left === true ||
        left === 1 ||
        (typeof left === 'string' && ['true', '1'].includes(left.trim().toLowerCase()))
      );
    case 'is_false':
      return (
        left === false ||
        left === 0 ||
        (typeof left === 'string' && ['false', '0'].includes(left.trim().toLowerCase()))
      );
    case 'length_eq':
      return compare(lengthOf(left), right, (x, y) => x === y);
    case 'length_gt':
      return compare(lengthOf(left), right, (x, y) => x > y);
    case 'length_gte':
      return compare(lengthOf(left), right, (x, y) => x >= y);
    case 'length_lt':
      return compare(lengthOf(left), right, (x, y) => x < y);
    case 'length_lte':
      return compare(lengthOf(left), right, (x, y) => x <= y);
    case 'in':
      return asList(right).some((item) => same(left, item));
    case 'not_in':
      return !asList(right).some((item) => same(left, item));
  }
}

/** A branch matches when its conditions hold (all for and, one for or); an empty branch never matches. */
export const branchMatches = (branch: ConditionBranch): boolean =>
  branch.conditions.length > 0 &&
  (branch.logic === 'and'
    ? branch.conditions.every(evaluateCondition)
    : branch.conditions.some(evaluateCondition));

/** The handle of the first matching branch, else the else handle. */
export const chooseBranch = (branches: readonly ConditionBranch[]): string =>
  branches.find(branchMatches)?.id ?? ELSE_HANDLE;
