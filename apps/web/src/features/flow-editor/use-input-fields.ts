import { type InputCustomField, inputCustomField } from '@atelier/schemas';
import { useMemo } from 'react';
import { useEditorStore } from './editor-store';

/** The custom fields of the flow's input node, as a run asks for them (malformed ones left out). */
export function useInputFields(): InputCustomField[] {
  const fields = useEditorStore((s) => s.nodes.find((n) => n.type === 'input')?.data.fields);
  return useMemo(
    () =>
      (Array.isArray(fields) ? fields : []).flatMap((f) => {
        const parsed = inputCustomField.safeParse(f);
        return parsed.success ? [parsed.data] : [];
      }),
    [fields],
  );
}
