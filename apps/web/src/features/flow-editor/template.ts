import { type Chatbot, templateById } from '@atelier/schemas';
import type { Graph } from './graph-ops';
import { fromConfiguration } from './serialize';

/** The spec's texts for a template that cannot be applied (section 8, "Flow"). */
export const TEMPLATE_NOT_FOUND = 'Template not found';
export const NOTHING_LOADED = 'Current configuration or chatbot not found';

/**
 * Applying a template replaces the nodes and edges of the current configuration; it needs both a
 * configuration and a chatbot loaded (spec section 4). Throws the spec's texts otherwise.
 */
export function applyTemplate(current: Graph | null, chatbot: Chatbot | null, templateId: string): Graph {
  if (!current || !chatbot) throw new Error(NOTHING_LOADED);
  const template = templateById(templateId);
  if (!template) throw new Error(TEMPLATE_NOT_FOUND);
  return fromConfiguration(template.configuration).graph;
}
