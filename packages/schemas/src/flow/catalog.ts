import type { z } from 'zod';
import { branchHandles, conditionBranches } from './conditions';
import { isCatalogKey, type NodeCategory, type NodeDefinition } from './fields';
import type { FlowNode } from './graph';
import { inputNode, outputNode } from './nodes/io';
import { agentNode, llmNode, multimodalLlmNode } from './nodes/models';
import {
  dalle2Node,
  dalle3Node,
  ocrNode,
  soraVideoNode,
  speechToTextNode,
  textToSpeechNode,
} from './nodes/media';
import {
  knowledgeRetrieveNode,
  metadataExtractionNode,
  metadataUpdateNode,
  rerankerNode,
  vectorStoreDeleteNode,
  vectorStoreInsertNode,
} from './nodes/knowledge';
import {
  apiRequestNode,
  figmaLoaderNode,
  gitbookLoaderNode,
  notionLoaderNode,
  sitemapScraperNode,
  webScraperNode,
} from './nodes/loaders';
import { htmlSplitterNode, markdownSplitterNode, recursiveSplitterNode } from './nodes/splitters';
import { calculatorToolNode, jiraToolsNode, textToolNode, vectorStoreToolNode } from './nodes/tools';
import { conditionalNode, iterationNode } from './nodes/logic';
import { inputCustomField } from './values';

/** Every kind of node, keyed by type. */
export const NODE_CATALOG = {
  input: inputNode,
  output: outputNode,
  llm: llmNode,
  multimodal_llm: multimodalLlmNode,
  agent: agentNode,
  dalle2: dalle2Node,
  dalle3: dalle3Node,
  text_to_speech: textToSpeechNode,
  speech_to_text: speechToTextNode,
  ocr: ocrNode,
  sora_video: soraVideoNode,
  knowledge_retrieve: knowledgeRetrieveNode,
  reranker: rerankerNode,
  vector_store_insert: vectorStoreInsertNode,
  vector_store_delete: vectorStoreDeleteNode,
  metadata_extraction: metadataExtractionNode,
  metadata_update: metadataUpdateNode,
  gitbook_loader: gitbookLoaderNode,
  notion_loader: notionLoaderNode,
  figma_loader: figmaLoaderNode,
  web_scraper: webScraperNode,
  sitemap_scraper: sitemapScraperNode,
  api_request: apiRequestNode,
  recursive_splitter: recursiveSplitterNode,
  html_splitter: htmlSplitterNode,
  markdown_splitter: markdownSplitterNode,
  calculator_tool: calculatorToolNode,
  text_tool: textToolNode,
  vector_store_tool: vectorStoreToolNode,
  jira_tools: jiraToolsNode,
  iteration: iterationNode,
  conditional: conditionalNode,
} as const satisfies { [K in string]: NodeDefinition<K> };

export type NodeCatalog = typeof NODE_CATALOG;
export type NodeType = keyof NodeCatalog;
/** The field values of a node type once references are resolved and defaults filled in. */
export type NodeFields<T extends NodeType> = z.output<NodeCatalog[T]['fields']>;

export const nodeTypes = Object.keys(NODE_CATALOG) as NodeType[];

export const isNodeType = (type: string): type is NodeType => Object.hasOwn(NODE_CATALOG, type);

export const nodeDefinition = (type: string): NodeDefinition | undefined =>
  isNodeType(type) ? NODE_CATALOG[type] : undefined;

/**
 * How server messages name a node: the name a person gave it, else its id (a node's label may be a catalog
 * key such as `nodeCatalog.nodes.llm.label`, which the web app translates and messages must not show).
 */
export function nodeName(node: Pick<FlowNode, 'id' | 'data'>): string {
  const label = node.data.label.trim();
  return label && !isCatalogKey(label) ? label : node.id;
}

/** Catalog entries by category, in catalog order, for the editor's node palette. */
export function nodesByCategory(): Map<NodeCategory, NodeDefinition[]> {
  const groups = new Map<NodeCategory, NodeDefinition[]>();
  for (const type of nodeTypes) {
    const def: NodeDefinition = NODE_CATALOG[type];
    const list = groups.get(def.category) ?? [];
    list.push(def);
    groups.set(def.category, list);
  }
  return groups;
}

/**
 * The output names a node offers others: the input node adds its custom fields, the output node its
 * structured values, the rest are the catalog's.
 */
export function outputsOf(node: Pick<FlowNode, 'type' | 'data'>): string[] {
  const def = nodeDefinition(node.type);
  if (!def) return [];
  const fields = node.data.fields;
  if (node.type === 'input' && Array.isArray(fields)) {
    const names = fields.flatMap((f) => {
      const parsed = inputCustomField.safeParse(f);
      return parsed.success ? [parsed.data.name] : [];
    });
    return [...new Set([...def.outputs, ...names])];
  }
  if (node.type === 'output' && !Array.isArray(fields)) {
    const structured = fields.structured_output;
    const names =
      structured && typeof structured === 'object' && !Array.isArray(structured)
        ? Object.keys(structured)
        : [];
    return [...new Set([...def.outputs, ...names])];
  }
  return [...def.outputs];
}

/** The source handles a node's outgoing edges may carry: a conditional's branches, else none. */
export function sourceHandlesOf(node: Pick<FlowNode, 'type' | 'data'>): string[] | null {
  if (node.type !== 'conditional') return null;
  const fields = node.data.fields;
  const parsed = conditionBranches.safeParse(Array.isArray(fields) ? undefined : fields.branches);
  return branchHandles(parsed.success ? parsed.data : []);
}
