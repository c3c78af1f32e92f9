import { FLOW_TEMPLATES, TOOLS_HANDLE } from '@atelier/schemas';
import { beforeEach, describe, expect, it } from 'vitest';
import { copySelection, paste } from '../src/features/flow-editor/clipboard';
import { useEditorStore } from '../src/features/flow-editor/editor-store';
import {
  checkConnection,
  connect,
  createNode,
  type EditorNode,
  type Graph,
  parentsFirst,
  removeEdges,
  removeNodes,
} from '../src/features/flow-editor/graph-ops';
import { emptyHistory, record, redo, undo } from '../src/features/flow-editor/history';
import { insertAt, renameReferences, upstreamOf } from '../src/features/flow-editor/references';
import { fromConfiguration, toConfiguration } from '../src/features/flow-editor/serialize';
import { applyTemplate, NOTHING_LOADED, TEMPLATE_NOT_FOUND } from '../src/features/flow-editor/template';

const at = { x: 0, y: 0 };

/** A graph built node by node, each linked as given. */
function build(types: string[], links: [number, number, string?][] = []): { graph: Graph; ids: string[] } {
  const nodes: EditorNode[] = [];
  for (const type of types) nodes.push(createNode(type, at, new Set(nodes.map((n) => n.id))));
  let graph: Graph = { nodes, edges: [] };
  for (const [s, t, handle] of links) {
    graph = connect(graph, { source: nodes[s]!.id, target: nodes[t]!.id, sourceHandle: handle ?? null });
  }
  return { graph, ids: nodes.map((n) => n.id) };
}

const chatbot = {
  id: 'c1',
  workspace_id: 'w1',
  name: 'Bot',
  description: '',
  type: 'chatflow' as const,
  is_published: false,
  instruction: '',
  model: null,
  fallback_model: null,
  knowledge_collections: [],
  conversation_analytics: true,
} as never;

describe('adding nodes', () => {
  it('gives a node its type, a 4-character suffix and the catalog defaults', () => {
    const node = createNode('llm', { x: 10.4, y: 20.6 }, new Set());
    expect(node.id).toMatch(/^llm_[a-z0-9]{4}$/);
    expect(node.position).toEqual({ x: 10, y: 21 });
    expect((node.data.fields as Record<string, unknown>).temperature).toBe(0.7);
    expect(node.data.outputs).toContain('response');
  });

  it('never reuses a taken id, sizes iterations and places children in their parent', () => {
    const taken = new Set<string>();
    for (let i = 0; i < 300; i++) taken.add(createNode('llm', at, taken).id);
    expect(taken.size).toBe(300);
    const iteration = createNode('iteration', at, taken);
    expect(iteration.width).toBeGreaterThan(0);
    const child = createNode('llm', at, taken, iteration.id);
    expect(child).toMatchObject({ parentId: iteration.id, extent: 'parent' });
    expect(() => createNode('nope', at, taken)).toThrow('Unknown node type');
  });
});

describe('connect rules', () => {
  it('links ordinary nodes once, with the spec id source-target', () => {
    const { graph, ids } = build(
      ['input', 'llm', 'output'],
      [
        [0, 1],
        [1, 2],
      ],
    );
    expect(graph.edges.map((e) => e.id)).toEqual([`${ids[0]}-${ids[1]}`, `${ids[1]}-${ids[2]}`]);
    expect(checkConnection(graph, { source: ids[0]!, target: ids[1]! })).toBe('duplicate');
  });

  it('refuses self links, links into the input, out of the output, and loops', () => {
    const { graph, ids } = build(
      ['input', 'llm', 'llm', 'output'],
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    );
    expect(checkConnection(graph, { source: ids[1]!, target: ids[1]! })).toBe('self');
    expect(checkConnection(graph, { source: ids[1]!, target: ids[0]! })).toBe('input_starts');
    expect(checkConnection(graph, { source: ids[3]!, target: ids[1]! })).toBe('output_ends');
    expect(checkConnection(graph, { source: ids[2]!, target: ids[1]! })).toBe('cycle');
    expect(connect(graph, { source: ids[2]!, target: ids[1]! })).toBe(graph);
  });

  it('makes a conditional link from one of its branches, each branch its own edge', () => {
    const { graph, ids } = build(['input', 'conditional', 'llm', 'llm']);
    const [, cond, a, b] = ids as [string, string, string, string];
    expect(checkConnection(graph, { source: cond, target: a })).toBe('branch_needed');
    expect(checkConnection(graph, { source: cond, target: a, sourceHandle: 'nope' })).toBe('branch_needed');
    let g = connect(graph, { source: cond, target: a, sourceHandle: 'if' });
    g = connect(g, { source: cond, target: b, sourceHandle: 'else' });
    g = connect(g, { source: cond, target: a, sourceHandle: 'else' });
    expect(g.edges.map((e) => [e.id, e.sourceHandle])).toEqual([
      [`${cond}-${a}-if`, 'if'],
      [`${cond}-${b}-else`, 'else'],
      [`${cond}-${a}-else`, 'else'],
    ]);
  });

  it('attaches tools only to an agent, on its tools handle, and lists them in its field', () => {
    const { graph, ids } = build(['agent', 'calculator_tool', 'llm']);
    const [agent, calc, llm] = ids as [string, string, string];
    expect(checkConnection(graph, { source: llm, target: agent, targetHandle: TOOLS_HANDLE })).toBe(
      'not_a_tool',
    );
    expect(checkConnection(graph, { source: calc, target: agent })).toBe('tools_only');
    expect(checkConnection(graph, { source: calc, target: llm, targetHandle: TOOLS_HANDLE })).toBe(
      'tools_only',
    );
    const g = connect(graph, { source: calc, target: agent, targetHandle: TOOLS_HANDLE });
    const fields = g.nodes.find((n) => n.id === agent)!.data.fields as Record<string, unknown>;
    expect(fields.tools).toEqual([calc]);
    // Detaching the edge takes the tool off the list again.
    const detached = removeEdges(g, [g.edges[0]!.id]);
    expect(
      (detached.nodes.find((n) => n.id === agent)!.data.fields as Record<string, unknown>).tools,
    ).toEqual([]);
  });

  it('keeps edges inside one iteration', () => {
    const { graph, ids } = build(['input', 'iteration']);
    const child = createNode('llm', at, new Set(ids), ids[1]);
    const g = { nodes: [...graph.nodes, child], edges: graph.edges };
    expect(checkConnection(g, { source: ids[0]!, target: child.id })).toBe('different_scope');
  });
});

describe('deleting', () => {
  it('removes a node with every edge that touches it', () => {
    const { graph, ids } = build(
      ['input', 'llm', 'output'],
      [
        [0, 1],
        [1, 2],
      ],
    );
    const g = removeNodes(graph, [ids[1]!]);
    expect(g.nodes.map((n) => n.id)).toEqual([ids[0], ids[2]]);
    expect(g.edges).toEqual([]);
  });

  it("removes an iteration's children and a deleted tool from its agent", () => {
    const { graph, ids } = build(['agent', 'text_tool', 'iteration']);
    const child = createNode('llm', at, new Set(ids), ids[2]);
    let g: Graph = { nodes: [...graph.nodes, child], edges: graph.edges };
    g = connect(g, { source: ids[1]!, target: ids[0]!, targetHandle: TOOLS_HANDLE });
    g = removeNodes(g, [ids[2]!, ids[1]!]);
    expect(g.nodes.map((n) => n.id)).toEqual([ids[0]]);
    expect((g.nodes[0]!.data.fields as Record<string, unknown>).tools).toEqual([]);
    expect(removeNodes(g, ['missing'])).toBe(g);
  });
});

describe('the variable picker offers upstream outputs only', () => {
  it('lists what runs before, never the node itself, what follows or another branch', () => {
    const { graph, ids } = build(
      ['input', 'conditional', 'llm', 'llm', 'output'],
      [
        [0, 1],
        [1, 2, 'if'],
        [1, 3, 'else'],
        [2, 4],
      ],
    );
    const [input, cond, a, b] = ids as [string, string, string, string];
    const up = upstreamOf(graph, a);
    expect(up.map((s) => s.nodeId)).toEqual([cond, input]);
    expect(up.find((s) => s.nodeId === input)!.outputs).toEqual(['query', 'history']);
    expect(up.some((s) => s.nodeId === b || s.nodeId === a)).toBe(false);
    expect(upstreamOf(graph, input)).toEqual([]);
  });

  it("offers the input node's custom fields", () => {
    const { graph, ids } = build(['input', 'llm'], [[0, 1]]);
    graph.nodes[0]!.data.fields = [{ name: 'topic', type: 'string', isMandatory: true }];
    expect(upstreamOf(graph, ids[1]!)[0]!.outputs).toEqual(['query', 'history', 'topic']);
  });

  it("inside an iteration: siblings before, the iteration's item and index, then what precedes it", () => {
    const { graph, ids } = build(['input', 'iteration'], [[0, 1]]);
    const taken = new Set(ids);
    const first = createNode('llm', at, taken, ids[1]);
    taken.add(first.id);
    const second = createNode('llm', at, taken, ids[1]);
    let g: Graph = { nodes: [...graph.nodes, first, second], edges: graph.edges };
    g = connect(g, { source: first.id, target: second.id });
    const up = upstreamOf(g, second.id);
    expect(up.map((s) => s.nodeId)).toEqual([first.id, ids[1], ids[0]]);
    expect(up[1]!.outputs).toEqual(['item', 'index']);
  });

  it('a tool attached to an agent reads what the agent reads', () => {
    const { graph, ids } = build(['input', 'agent', 'text_tool'], [[0, 1]]);
    const g = connect(graph, { source: ids[2]!, target: ids[1]!, targetHandle: TOOLS_HANDLE });
    expect(upstreamOf(g, ids[2]!).map((s) => s.nodeId)).toEqual([ids[0]]);
  });

  it('inserts a reference at the caret', () => {
    expect(insertAt('Hello !', 6, '{{#input_ab12.query#}}')).toEqual({
      text: 'Hello {{#input_ab12.query#}}!',
      caret: 28,
    });
    expect(insertAt('abc', null, 'X').text).toBe('abcX');
  });
});

describe('copy and paste', () => {
  it('pastes new ids, with edges and references between the copies rewritten', () => {
    const { graph, ids } = build(
      ['input', 'llm', 'llm'],
      [
        [0, 1],
        [1, 2],
      ],
    );
    const [input, a, b] = ids as [string, string, string];
    (graph.nodes[2]!.data.fields as Record<string, unknown>).prompt =
      `{{#${a}.response#}} and {{#${input}.query#}}`;
    const clip = copySelection(graph, [a, b])!;
    const { graph: g, pasted } = paste(graph, clip, { x: 40, y: 40 });
    expect(g.nodes).toHaveLength(5);
    const [a2, b2] = pasted as [string, string];
    expect([a2, b2].some((id) => ids.includes(id))).toBe(false);
    expect(g.edges.at(-1)).toMatchObject({ id: `${a2}-${b2}`, source: a2, target: b2 });
    const prompt = (g.nodes.find((n) => n.id === b2)!.data.fields as Record<string, unknown>).prompt;
    expect(prompt).toBe(`{{#${a2}.response#}} and {{#${input}.query#}}`);
    expect(g.nodes.find((n) => n.id === a2)!.position).toEqual({ x: 40, y: 40 });
  });

  it('copies an iteration with its children, which keep their places inside', () => {
    const { graph, ids } = build(['iteration']);
    const child = createNode('llm', { x: 30, y: 60 }, new Set(ids), ids[0]);
    const g0 = { nodes: [...graph.nodes, child], edges: [] };
    const { graph: g, pasted } = paste(g0, copySelection(g0, [ids[0]!])!, { x: 40, y: 40 });
    const [frame, inner] = pasted.map((id) => g.nodes.find((n) => n.id === id)!);
    expect(inner).toMatchObject({ parentId: frame!.id, position: { x: 30, y: 60 } });
    expect(g.nodes.indexOf(frame!)).toBeLessThan(g.nodes.indexOf(inner!));
  });

  it('renames references at any depth', () => {
    const value = { branches: [{ conditions: [{ left: '{{#a_1.x#}}', right: '{{#b_1.y#}}' }] }] };
    expect(renameReferences(value, new Map([['a_1', 'a_2']]))).toEqual({
      branches: [{ conditions: [{ left: '{{#a_2.x#}}', right: '{{#b_1.y#}}' }] }],
    });
  });
});

describe('templates', () => {
  it('replace the nodes and edges of the loaded configuration', () => {
    const { graph } = build(['input', 'output'], [[0, 1]]);
    for (const template of FLOW_TEMPLATES) {
      const g = applyTemplate(graph, chatbot, template.id);
      expect(g.nodes.map((n) => n.id)).toEqual(
        parentsFirst(template.configuration.nodes as EditorNode[]).map((n) => n.id),
      );
      expect(g.edges).toHaveLength(template.configuration.edges.length);
    }
  });

  it("need a configuration and a chatbot, and a template that exists (the spec's texts)", () => {
    const { graph } = build(['input']);
    expect(() => applyTemplate(null, chatbot, 'qa-chatbot')).toThrow(NOTHING_LOADED);
    expect(() => applyTemplate(graph, null, 'qa-chatbot')).toThrow(NOTHING_LOADED);
    expect(() => applyTemplate(graph, chatbot, 'nope')).toThrow(TEMPLATE_NOT_FOUND);
    expect(NOTHING_LOADED).toBe('Current configuration or chatbot not found');
    expect(TEMPLATE_NOT_FOUND).toBe('Template not found');
  });
});

describe('saving', () => {
  it("leaves React Flow's own keys out and reads back the same configuration", () => {
    const template = FLOW_TEMPLATES.find((t) => t.id === 'qa-chatbot')!;
    const { graph, dropped } = fromConfiguration(template.configuration);
    expect(dropped).toBe(0);
    const drawn = {
      ...graph,
      nodes: graph.nodes.map((n) => ({ ...n, selected: true, measured: { width: 1, height: 2 } })),
    };
    const saved = toConfiguration(drawn);
    expect(JSON.stringify(saved)).not.toMatch(/selected|measured/);
    expect(fromConfiguration(JSON.parse(JSON.stringify(saved))).graph).toEqual(graph);
  });

  it('drops malformed nodes and edges instead of refusing to draw, and says how many', () => {
    const { graph, dropped } = fromConfiguration({
      nodes: [{ id: 'llm_abcd', type: 'llm', position: { x: 0, y: 0 }, data: { label: 'L' } }, { id: 1 }],
      edges: [{ nope: true }],
    });
    expect(graph.nodes).toHaveLength(1);
    expect(dropped).toBe(2);
    expect(fromConfiguration(null).graph).toEqual({ nodes: [], edges: [] });
  });
});

describe('undo and redo', () => {
  it('steps back and forth, and typing in one field is one step', () => {
    const g1 = build(['input']).graph;
    const g2 = build(['input', 'llm']).graph;
    let h = record(emptyHistory(), g1, 'node:prompt');
    h = record(h, g2, 'node:prompt');
    expect(h.past).toEqual([g1]);
    const back = undo(h, g2)!;
    expect(back.graph).toBe(g1);
    const forth = redo(back.history, g1)!;
    expect(forth.graph).toBe(g2);
    expect(undo(emptyHistory(), g1)).toBeNull();
  });

  describe('in the editor store', () => {
    beforeEach(() => useEditorStore.getState().load(chatbot, { nodes: [], edges: [] }));

    it('undoes and redoes a series of edits, and a drag is one step', () => {
      const s = () => useEditorStore.getState();
      const input = s().addNode('input', at);
      const llm = s().addNode('llm', { x: 300, y: 0 });
      expect(s().connect({ source: input, target: llm })).toBeNull();
      s().updateNode(llm, { fields: { ...(s().nodes[1]!.data.fields as object), prompt: 'H' } }, 'prompt');
      s().updateNode(llm, { fields: { ...(s().nodes[1]!.data.fields as object), prompt: 'Hi' } }, 'prompt');
      s().onNodesChange([{ type: 'position', id: llm, position: { x: 310, y: 0 }, dragging: true }]);
      s().onNodesChange([{ type: 'position', id: llm, position: { x: 320, y: 0 }, dragging: true }]);
      s().onNodesChange([{ type: 'position', id: llm, dragging: false }]);
      expect(s().dirty).toBe(true);
      expect(s().history.past).toHaveLength(5);

      s().undo(); // the drag
      expect(s().nodes[1]!.position).toEqual({ x: 300, y: 0 });
      s().undo(); // the typing
      expect((s().nodes[1]!.data.fields as Record<string, unknown>).prompt).toBe('');
      s().undo(); // the edge
      expect(s().edges).toEqual([]);
      s().redo();
      s().redo();
      s().redo();
      expect(s().nodes[1]!.position).toEqual({ x: 320, y: 0 });
      expect((s().nodes[1]!.data.fields as Record<string, unknown>).prompt).toBe('Hi');
      expect(s().edges).toHaveLength(1);
    });

    it('deletes the selection in one step and clears the selected node', () => {
      const s = () => useEditorStore.getState();
      const input = s().addNode('input', at);
      const llm = s().addNode('llm', at);
      s().connect({ source: input, target: llm });
      expect(s().selectedNodeId).toBe(llm);
      s().deleteSelection();
      expect(s().nodes.map((n) => n.id)).toEqual([input]);
      expect(s().edges).toEqual([]);
      expect(s().selectedNodeId).toBeNull();
      s().undo();
      expect(s().edges).toHaveLength(1);
    });

    it('a conditional that loses a branch loses its edges; editing a node clears its problems', () => {
      const s = () => useEditorStore.getState();
      const cond = s().addNode('conditional', at);
      const a = s().addNode('llm', at);
      const b = s().addNode('llm', at);
      const branches = [
        { id: 'if', logic: 'and', conditions: [] },
        { id: 'elif_1', logic: 'and', conditions: [] },
      ];
      s().updateNode(cond, { fields: { branches } });
      s().connect({ source: cond, target: a, sourceHandle: 'elif_1' });
      s().connect({ source: cond, target: b, sourceHandle: 'else' });
      s().setProblems([{ node_id: cond, field: 'branches', code: 'missing_field', message: 'x' }]);
      s().updateNode(cond, { fields: { branches: branches.slice(0, 1) } });
      expect(s().edges.map((e) => e.sourceHandle)).toEqual(['else']);
      expect(s().problems).toEqual([]);
    });

    it('applies a template as one undoable step, and refuses before anything is loaded', () => {
      const s = () => useEditorStore.getState();
      s().applyTemplate('qa-chatbot');
      expect(s().nodes.length).toBeGreaterThan(2);
      s().undo();
      expect(s().nodes).toEqual([]);
      s().reset();
      expect(() => s().applyTemplate('qa-chatbot')).toThrow(NOTHING_LOADED);
    });
  });
});

describe('selection', () => {
  it('selecting a node clears the selected execution node (spec section 4)', async () => {
    const { useRunStore } = await import('../src/features/flow-editor/runs/run-store');
    useEditorStore.getState().load(chatbot, { nodes: [], edges: [] });
    const id = useEditorStore.getState().addNode('llm', at);
    useRunStore.getState().selectExecution(id);
    expect(useRunStore.getState().selectedExecutionNodeId).toBe(id);
    useEditorStore.getState().selectNode(id);
    expect(useRunStore.getState().selectedExecutionNodeId).toBeNull();
  });
});
