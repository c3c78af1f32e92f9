import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  canonicalJson,
  draftStore,
  draftToOffer,
  draftWriter,
  sameValue,
} from '../src/features/drafts/local-draft';
import { clearDraft, differs, readDraft, writeDraft } from '../src/features/flow-editor/draft';
import { fromConfiguration } from '../src/features/flow-editor/serialize';
import { isDirty, simpleFormOf } from '../src/features/studio/logic';

beforeEach(() => localStorage.clear());
afterEach(() => vi.useRealTimers());

/** A flow as the server answers it: jsonb has reordered every object's keys (shorter keys first). */
const fromServer = {
  edges: [{ id: 'input_a1b2-output_c3d4', source: 'input_a1b2', target: 'output_c3d4' }],
  nodes: [
    {
      id: 'input_a1b2',
      data: { label: 'Input', fields: [], outputs: [], description: '' },
      type: 'input',
      position: { x: 0, y: 0 },
    },
    {
      id: 'output_c3d4',
      data: { label: 'Output', fields: { response: '{{#input_a1b2.query#}}' }, outputs: [], description: '' },
      type: 'output',
      position: { x: 240, y: 0 },
    },
  ],
};
/** The same flow as the editor wrote it before saving (its own key order). */
const fromEditor = {
  nodes: fromServer.nodes.map((n) => ({
    id: n.id,
    type: n.type,
    data: {
      description: n.data.description,
      outputs: n.data.outputs,
      fields: n.data.fields,
      label: n.data.label,
    },
    position: { y: n.position.y, x: n.position.x },
  })),
  edges: fromServer.edges.map((e) => ({ target: e.target, source: e.source, id: e.id })),
};

describe('drafts', () => {
  it('compare values whatever the order of their keys', () => {
    expect(JSON.stringify(fromServer) === JSON.stringify(fromEditor)).toBe(false);
    expect(sameValue(fromServer, fromEditor)).toBe(true);
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    expect(sameValue({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });

  it('a flow saved, then reopened, does not offer its own saved copy as unsaved changes', () => {
    const loaded = fromConfiguration(fromServer).graph;
    writeDraft('bot', fromEditor as never);
    expect(differs(readDraft('bot')!, loaded)).toBe(false);
    const moved = { ...fromEditor, nodes: fromEditor.nodes.map((n) => ({ ...n, position: { x: 9, y: 9 } })) };
    writeDraft('bot', moved as never);
    expect(differs(readDraft('bot')!, loaded)).toBe(true);
    clearDraft('bot');
    expect(readDraft('bot')).toBeNull();
  });

  it('a draft equal to the saved copy is dropped when the editor opens; another is offered', () => {
    const store = draftStore<{ text: string }>('test-draft');
    store.write('x', { text: 'saved' });
    expect(draftToOffer(store, 'x', { text: 'saved' })).toBeNull();
    expect(store.read('x')).toBeNull();
    store.write('x', { text: 'edited' });
    expect(draftToOffer(store, 'x', { text: 'saved' })?.value).toEqual({ text: 'edited' });
  });

  it('the writer waits a second, drops its write when the edits are saved, and flushes on leaving', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const writer = draftWriter<string>((value) => written.push(value));
    writer.changed(() => 'one');
    vi.advanceTimersByTime(500);
    writer.changed(() => 'two');
    vi.advanceTimersByTime(999);
    expect(written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(written).toEqual(['two']);
    // Saved within the second: nothing is written after the save.
    writer.changed(() => 'three');
    writer.changed(null);
    vi.advanceTimersByTime(5000);
    expect(written).toEqual(['two']);
    // Leaving before the second is up keeps the last edits.
    writer.changed(() => 'four');
    writer.flush();
    vi.advanceTimersByTime(5000);
    expect(written).toEqual(['two', 'four']);
  });

  it('writes the pending draft when the page goes away, since a reload unmounts nothing', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const writer = draftWriter<string>((value) => written.push(value));
    const stop = writer.flushWhenHidden();
    writer.changed(() => 'typed just before reloading');
    window.dispatchEvent(new Event('pagehide'));
    expect(written).toEqual(['typed just before reloading']);
    vi.advanceTimersByTime(5000);
    expect(written).toEqual(['typed just before reloading']);
    // Out of sight (a phone switching apps) flushes too; once stopped, nothing is listened to.
    writer.changed(() => 'then hidden');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(written).toEqual(['typed just before reloading', 'then hidden']);
    stop();
    writer.changed(() => 'after stop');
    window.dispatchEvent(new Event('pagehide'));
    expect(written).toHaveLength(2);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  });

  it("a simple chatbot's name saved with a trailing space is not an unsaved change", () => {
    const saved = simpleFormOf({
      id: 'b',
      workspace_id: 'w',
      name: 'Helper',
      description: 'Says hi',
      type: 'simple',
      is_published: true,
      has_unpublished_changes: false,
      instruction: '',
      model_id: null,
      fallback_model_id: null,
      knowledge_collection_ids: [],
      store_conversations: true,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
    });
    expect(isDirty({ ...saved, name: 'Helper ', description: ' Says hi' }, saved)).toBe(false);
    expect(isDirty({ ...saved, name: 'Helper 2' }, saved)).toBe(true);
  });
});
