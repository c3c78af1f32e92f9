import type { FlowTemplate } from './build';
import { chatflowTemplates } from './chatflows';
import { workflowTemplates } from './workflows';

export type { FlowTemplate } from './build';
export { templateNode } from './build';

/** The ten starting points of the template picker: 8 chatflows, then 2 workflows. */
export const FLOW_TEMPLATES: readonly FlowTemplate[] = [...chatflowTemplates(), ...workflowTemplates()];

export const TEMPLATE_IDS = FLOW_TEMPLATES.map((t) => t.id);

/** A fresh copy of a template (safe to edit), or undefined: the caller answers 'Template not found'. */
export function templateById(id: string): FlowTemplate | undefined {
  const found = FLOW_TEMPLATES.find((t) => t.id === id);
  return found ? structuredClone(found) : undefined;
}
