import { NodeInputError } from './errors';
import { isEmptyValue, isVisible } from './field-checks';
import type { PlannedNode } from './plan';
import { type OutputLookup, resolveValue } from './references';

/** Resolves, parses and checks a node's fields for one execution. */
export function prepareFields(
  p: PlannedNode,
  scope: { lookup: OutputLookup },
): { raw: unknown; parsed: unknown } {
  const raw = p.dynamic ? resolveValue(p.node.data.fields, scope.lookup) : p.node.data.fields;
  const result = p.def.fields.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path[0];
    const meta = p.def.fieldMeta.find((m) => m.name === name);
    throw new NodeInputError(
      `${meta?.name ?? String(name ?? 'Fields')}: ${issue?.message ?? 'invalid value'}.`,
    );
  }
  const parsed = result.data as Record<string, unknown>;
  if (!Array.isArray(parsed)) {
    for (const meta of p.def.fieldMeta) {
      if (meta.required && isEmptyValue(parsed[meta.name]) && isVisible(meta, parsed, p.def)) {
        throw new NodeInputError(`${meta.name} is required (empty after resolving references).`);
      }
    }
  }
  return { raw, parsed };
}
