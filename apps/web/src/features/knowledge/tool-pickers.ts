import type { Tool } from '@atelier/schemas';
import type { ToolType } from '@atelier/schemas/constants';

/** The kind of stored tool a node's `toolId` field takes (figma_loader → figma…), or null. */
export function toolTypeOfNode(nodeType: string): ToolType | null {
  for (const type of ['figma', 'jira', 'notion', 'gitbook'] as const) {
    if (nodeType.startsWith(type)) return type;
  }
  return null;
}

/** The tools a node may pick, as the inspector's named items. */
export function toolItemsFor(nodeType: string, tools: Tool[] | undefined) {
  if (!tools) return undefined;
  const type = toolTypeOfNode(nodeType);
  return tools.filter((t) => type === null || t.type === type).map((t) => ({ id: t.tool_id, name: t.name }));
}
