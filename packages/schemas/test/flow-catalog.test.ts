import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  branchHandles,
  edgeId,
  flowConfig,
  NODE_CATALOG,
  type NodeDefinition,
  newNodeId,
  nodeTypes,
  nodesByCategory,
  outputsOf,
  sourceHandlesOf,
} from '../src';

const SPEC_TYPES = [
  'input',
  'llm',
  'multimodal_llm',
  'dalle2',
  'dalle3',
  'text_to_speech',
  'speech_to_text',
  'ocr',
  'sora_video',
  'knowledge_retrieve',
  'gitbook_loader',
  'notion_loader',
  'figma_loader',
  'web_scraper',
  'sitemap_scraper',
  'api_request',
  'metadata_extraction',
  'metadata_update',
  'recursive_splitter',
  'html_splitter',
  'markdown_splitter',
  'reranker',
  'vector_store_insert',
  'vector_store_delete',
  'output',
  'agent',
  'calculator_tool',
  'text_tool',
  'vector_store_tool',
  'jira_tools',
  'iteration',
  'conditional',
];

const properties = (def: NodeDefinition) =>
  (z.toJSONSchema(def.fields, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<
    string,
    { enum?: unknown[] }
  >;

describe('NODE_CATALOG', () => {
  it('has every node type of the spec, each under its own key', () => {
    expect([...nodeTypes].sort()).toEqual([...SPEC_TYPES].sort());
    for (const type of nodeTypes) expect(NODE_CATALOG[type].type).toBe(type);
  });

  it('describes every field for the editor, and only fields that exist', () => {
    for (const type of nodeTypes) {
      const def: NodeDefinition = NODE_CATALOG[type];
      expect(def.label, type).not.toBe('');
      expect(def.description, type).not.toBe('');
      if (type === 'input') continue;
      const names = def.fieldMeta.map((m) => m.name);
      expect(names.sort(), type).toEqual(Object.keys(properties(def)).sort());
      for (const meta of def.fieldMeta) {
        if (meta.kind === 'model') expect(meta.modelType, `${type}.${meta.name}`).toBeDefined();
        if (meta.visibleWhen) expect(names, `${type}.${meta.name}`).toContain(meta.visibleWhen.field);
      }
    }
  });

  it('offers exactly the values its select fields accept', () => {
    for (const type of nodeTypes) {
      const def: NodeDefinition = NODE_CATALOG[type];
      const props = properties(def);
      for (const meta of def.fieldMeta.filter((m) => m.kind === 'select' && m.options)) {
        expect(
          meta.options!.map((o) => o.value),
          `${type}.${meta.name}`,
        ).toEqual(props[meta.name]!.enum);
      }
    }
  });

  it('starts new nodes with the spec defaults', () => {
    expect(NODE_CATALOG.llm.defaults).toMatchObject({ temperature: 0.7, prompt: '', modelId: '' });
    expect(NODE_CATALOG.knowledge_retrieve.defaults.number_documents).toBe(10);
    expect(NODE_CATALOG.reranker.defaults.top_k).toBe(5);
    expect(NODE_CATALOG.recursive_splitter.defaults).toMatchObject({
      chunk_size: 1000,
      chunk_overlap: 100,
      separators: ['\n\n', '\n', ' ', ''],
    });
    expect(NODE_CATALOG.notion_loader.defaults.request_timeout_sec).toBe(10);
    expect(NODE_CATALOG.text_to_speech.defaults).toMatchObject({
      voice: 'alloy',
      response_format: 'mp3',
      speed: 1,
    });
    expect(NODE_CATALOG.dalle3.defaults).toMatchObject({
      quality: 'standard',
      size: '1024x1024',
      style: 'vivid',
    });
    expect(NODE_CATALOG.speech_to_text.defaults.temperature).toBe(0);
    expect(NODE_CATALOG.input.defaults).toEqual([]);
    expect(NODE_CATALOG.conditional.defaults.branches).toEqual([{ id: 'if', logic: 'and', conditions: [] }]);
  });

  it('coerces resolved values: numbers and booleans from text, JSON fields from text', () => {
    const parsed = NODE_CATALOG.recursive_splitter.fields.parse({
      chunk_size: '500',
      is_separator_regex: 'false',
      separators: '["\\n", " "]',
    });
    expect(parsed).toMatchObject({ chunk_size: 500, is_separator_regex: false, separators: ['\n', ' '] });
    expect(NODE_CATALOG.llm.fields.parse({ prompt: { a: 1 } }).prompt).toBe('{"a":1}');
    expect(NODE_CATALOG.llm.fields.safeParse({ temperature: 'hot' }).success).toBe(false);
  });

  it('marks tools, containers and branching nodes', () => {
    const flagged = (key: 'isTool' | 'isContainer' | 'branching') =>
      nodeTypes.filter((t) => (NODE_CATALOG[t] as NodeDefinition)[key]);
    expect(flagged('isTool')).toEqual(['calculator_tool', 'text_tool', 'vector_store_tool', 'jira_tools']);
    expect(flagged('isContainer')).toEqual(['iteration']);
    expect(flagged('branching')).toEqual(['conditional']);
    expect(NODE_CATALOG.iteration.childOutputs).toEqual(['item', 'index']);
  });

  it('groups the palette by category', () => {
    const groups = nodesByCategory();
    expect(groups.get('io')!.map((d) => d.type)).toEqual(['input', 'output']);
    expect([...groups.values()].flat()).toHaveLength(nodeTypes.length);
  });
});

describe('node outputs and handles', () => {
  const base = { position: { x: 0, y: 0 } };

  it('adds the custom fields of the input node and the structured values of the output node', () => {
    const input = {
      ...base,
      type: 'input',
      data: { label: 'In', fields: [{ name: 'city', type: 'string', isMandatory: true }] },
    };
    expect(outputsOf(input)).toEqual(['query', 'history', 'city']);
    const output = {
      ...base,
      type: 'output',
      data: { label: 'Out', fields: { structured_output: { score: 1 } } },
    };
    expect(outputsOf(output)).toEqual(['response', 'score']);
    expect(outputsOf({ type: 'teleport', data: { label: '', fields: {} } })).toEqual([]);
  });

  it('gives a conditional one handle per branch, then else', () => {
    const cond = {
      type: 'conditional',
      data: { label: 'If', fields: { branches: [{ id: 'big' }, { id: 'small' }] } },
    };
    expect(sourceHandlesOf(cond)).toEqual(['big', 'small', 'else']);
    expect(branchHandles([{ id: 'if' }])).toEqual(['if', 'else']);
    expect(sourceHandlesOf({ type: 'llm', data: { label: '', fields: {} } })).toBeNull();
  });
});

describe('ids', () => {
  it('names a node by its type and a 4-character suffix, avoiding ids in use', () => {
    const id = newNodeId('llm');
    expect(id).toMatch(/^llm_[a-z0-9]{4}$/);
    const taken = new Set(Array.from({ length: 50 }, () => newNodeId('multimodal_llm')));
    const fresh = newNodeId('multimodal_llm', taken);
    expect(fresh).toMatch(/^multimodal_llm_[a-z0-9]{4}$/);
    expect(taken.has(fresh)).toBe(false);
  });

  it('names an edge source-target, with the branch handle when it leaves one', () => {
    expect(edgeId('input_ab12', 'llm_cd34')).toBe('input_ab12-llm_cd34');
    expect(edgeId('conditional_ab12', 'llm_cd34', 'else')).toBe('conditional_ab12-llm_cd34-else');
    expect(edgeId('conditional_ab12', 'llm_cd34', null)).toBe('conditional_ab12-llm_cd34');
  });
});

describe('flowConfig', () => {
  it('parses a saved configuration, keeping extra node data and the node settings', () => {
    const parsed = flowConfig.parse({
      nodes: [
        {
          id: 'llm_ab12',
          type: 'llm',
          position: { x: 1, y: 2 },
          data: { label: 'LLM', fields: {}, retry: { max: 2 }, timeoutMs: 5000, editorColour: 'blue' },
          parentId: 'iteration_zz99',
          extent: 'parent',
        },
      ],
      edges: [{ id: 'a-b', source: 'a', target: 'b', sourceHandle: null }],
    });
    expect(parsed.nodes[0]!.data).toMatchObject({
      retry: { max: 2, backoffMs: 1000 },
      timeoutMs: 5000,
      editorColour: 'blue',
    });
    expect(
      flowConfig.safeParse({ nodes: [{ id: 'x', type: 'llm', data: { label: 'x' } }], edges: [] }).success,
    ).toBe(false);
  });
});
