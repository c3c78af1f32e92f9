import type { RunDetail, RunNodeExecution } from '@atelier/schemas';
import { act, createElement } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExecutionPanel } from '../src/features/flow-editor/runs/execution-panel';
import { NodeRunBadge } from '../src/features/flow-editor/runs/node-run-badge';
import { findMedia, imageSrc, mediaOf, previewString } from '../src/features/flow-editor/runs/media';
import { RunProgress } from '../src/features/flow-editor/runs/run-progress';
import { useRunStore } from '../src/features/flow-editor/runs/run-store';
import { reactRoot } from './react-root';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const MP3 = 'data:audio/mpeg;base64,SUQz';

describe('media in outputs', () => {
  it('data: images and audio, http(s) by extension or field name, file values by mime type', () => {
    expect(mediaOf(PNG)).toEqual({ kind: 'image', src: PNG });
    expect(mediaOf(MP3)).toEqual({ kind: 'audio', src: MP3 });
    expect(mediaOf('https://cdn.test/a.JPG?x=1')).toEqual({
      kind: 'image',
      src: 'https://cdn.test/a.JPG?x=1',
    });
    expect(mediaOf('https://cdn.test/speech.mp3')).toMatchObject({ kind: 'audio' });
    expect(mediaOf('https://cdn.test/generated', 'image_url')).toMatchObject({ kind: 'image' });
    expect(mediaOf('https://cdn.test/page')).toBeNull();
    expect(mediaOf({ name: 'x.png', mimeType: 'image/png', dataUrl: PNG })).toEqual({
      kind: 'image',
      src: PNG,
    });
    expect(mediaOf({ name: 'v.mp3', mimeType: 'audio/mpeg', url: 'https://a.test/v' })).toMatchObject({
      kind: 'audio',
    });
  });

  it('never lets another scheme through', () => {
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'blob:https://x/1',
      '//evil.test/a.png',
    ]) {
      expect(mediaOf(bad), bad).toBeNull();
      expect(imageSrc(bad), bad).toBeNull();
    }
    expect(mediaOf({ name: 'x', mimeType: 'image/png', url: 'javascript:alert(1)' })).toBeNull();
    expect(mediaOf({ name: 'x', mimeType: 'image/png', dataUrl: 'data:text/html,x' })).toBeNull();
  });

  it('finds media deep in a value with where it was found', () => {
    const found = findMedia({
      text: 'hi',
      images: [PNG, { name: 'b.png', mimeType: 'image/png', dataUrl: PNG }],
      audio: MP3,
    });
    expect(found.map((m) => [m.kind, m.label])).toEqual([
      ['image', 'images.0'],
      ['image', 'b.png'],
      ['audio', 'audio'],
    ]);
    expect(previewString(`data:image/png;base64,${'A'.repeat(5000)}`)).toBe('data:image/png;base64,… (5 kB)');
    expect(previewString('short')).toBe('short');
  });
});

const execution = (over: Partial<RunNodeExecution>): RunNodeExecution => ({
  node_id: 'n1',
  node_type: 'dalle3',
  iteration_index: null,
  status: 'succeeded',
  error: null,
  duration_seconds: 2.5,
  parameters: { prompt: 'a cat' },
  outputs: {},
  started_at: '2026-01-01T00:00:00Z',
  ...over,
});

const detail = (executions: RunNodeExecution[]): RunDetail => ({
  id: 'r1',
  chatbot_id: 'c1',
  chatbot_type: 'workflow',
  conversation_id: null,
  trigger: 'test',
  status: 'succeeded',
  config_version: null,
  inputs: {},
  outputs: { result: '**Done**' },
  final_output: '**Done** <script>x</script>',
  error: null,
  started_by: null,
  created_at: '2026-01-01T00:00:00Z',
  started_at: '2026-01-01T00:00:00Z',
  finished_at: '2026-01-01T00:00:03Z',
  node_executions: executions,
});

describe('the execution panel', () => {
  const dom = reactRoot();
  beforeEach(() => useRunStore.getState().reset());
  const render = dom.render;

  it('renders nothing while no node is selected', () => {
    render(createElement(ExecutionPanel));
    expect(dom.container.innerHTML).toBe('');
  });

  it('shows status, duration, parameters and outputs as JSON, images and audio as such', () => {
    useRunStore.getState().loadRun(
      detail([
        execution({
          outputs: {
            image: { name: 'cat.png', mimeType: 'image/png', dataUrl: PNG },
            speech: MP3,
            meta: { size: '1024x1024', evil: 'javascript:alert(1)' },
          },
        }),
      ]),
    );
    render(createElement(ExecutionPanel));
    act(() => useRunStore.getState().selectExecution('n1'));
    const panel = dom.container.querySelector('[data-testid="execution-panel"]')!;
    expect(panel.textContent).toContain('Duration: 2.50 s');
    expect(panel.querySelector('[data-status="succeeded"]')?.textContent).toBe('Succeeded');
    const imgs = [...panel.querySelectorAll('img')].map((i) => i.getAttribute('src'));
    expect(imgs).toEqual([PNG]);
    expect(panel.querySelector('audio')?.getAttribute('src')).toBe(MP3);
    expect(panel.querySelector('audio')?.hasAttribute('controls')).toBe(true);
    const json = [...panel.querySelectorAll('[data-testid="json-tree"]')].map((j) => j.textContent);
    expect(json[0]).toContain('prompt: "a cat"');
    expect(json[1]).toContain('size: "1024x1024"');
    expect(panel.querySelector('a')).toBeNull();
    // Closing clears the selection.
    act(() => (panel.querySelector('button[aria-label="Close"]') as HTMLButtonElement).click());
    expect(useRunStore.getState().selectedExecutionNodeId).toBeNull();
    expect(dom.container.innerHTML).toBe('');
  });

  it('lists an iteration node by item, with each error', () => {
    useRunStore
      .getState()
      .loadRun(
        detail([
          execution({ iteration_index: 1, status: 'failed', error: 'Rate limited', outputs: {} }),
          execution({ iteration_index: 0, outputs: { result: 'first' } }),
        ]),
      );
    useRunStore.getState().selectExecution('n1');
    render(createElement(ExecutionPanel));
    const items = [...dom.container.querySelectorAll('[data-testid="node-execution"]')];
    expect(items.map((i) => i.textContent?.slice(0, 6))).toEqual(['Item 0', 'Item 1']);
    expect(items[1]?.querySelector('[role="alert"]')?.textContent).toBe('Rate limited');
  });

  it('the progress view renders the final output as markdown, never as HTML', () => {
    useRunStore.getState().loadRun(detail([execution({})]));
    render(createElement(RunProgress, { labels: { n1: 'Image generator' } }));
    const progress = dom.container.querySelector('[data-testid="run-progress"]')!;
    expect(progress.textContent).toContain('Image generator');
    expect(progress.querySelector('strong')?.textContent).toBe('Done');
    expect(progress.querySelector('script')).toBeNull();
    expect(progress.textContent).toContain('<script>x</script>');
  });

  it("a canvas node's badge names its status; it is a sign, the whole node opens the execution", () => {
    render(createElement(NodeRunBadge, { nodeId: 'n1' }));
    expect(dom.container.innerHTML).toBe('');
    act(() => useRunStore.getState().loadRun(detail([execution({ status: 'failed', error: 'x' })])));
    const badge = dom.container.querySelector('[data-testid="node-status-n1"]')!;
    expect(badge.getAttribute('aria-label')).toBe('Failed');
    expect(badge.querySelector('[data-status]')?.getAttribute('data-status')).toBe('failed');
    expect(dom.container.querySelector('button')).toBeNull();
  });

  it('names the model by its display name, and the node by its label with its id once', () => {
    useRunStore.getState().loadRun(
      detail([
        execution({
          node_id: 'llm_1',
          node_type: 'llm',
          parameters: { modelId: 'm-123', fallbackModelId: 'm-456', prompt: 'hi' },
        }),
      ]),
    );
    useRunStore.getState().selectExecution('llm_1');
    const names = {
      label: (id: string) => (id === 'llm_1' ? 'Writer' : undefined),
      model: (id: string) => ({ 'm-123': 'Fast model · Fake AI', 'm-456': 'Slow model · Fake AI' })[id],
    };
    render(createElement(ExecutionPanel, { names }));
    const panel = dom.container.querySelector('[data-testid="execution-panel"]')!;
    expect(panel.querySelector('h3')?.textContent).toBe('Writer');
    expect(panel.textContent!.split('llm_1').length - 1).toBe(1);
    expect(panel.querySelector('[data-testid="execution-model"]')?.textContent).toBe(
      'Model: Fast model · Fake AI',
    );
    expect(panel.textContent).not.toContain('m-123');
    expect(panel.textContent).toContain('fallbackModelId: "Slow model · Fake AI"');
  });

  it('without a label the node id is its title, shown once', () => {
    useRunStore.getState().loadRun(detail([execution({ node_id: 'n9' })]));
    useRunStore.getState().selectExecution('n9');
    render(createElement(ExecutionPanel));
    const panel = dom.container.querySelector('[data-testid="execution-panel"]')!;
    expect(panel.querySelector('h3')).toBeNull();
    expect(panel.textContent!.split('n9').length - 1).toBe(1);
  });
});
