import type { FlowStreamEvent, InputCustomField, InputFieldType } from '@atelier/schemas';
import { describe, expect, it, vi } from 'vitest';
import {
  additionalFields,
  historyOf,
  turnInputs,
  turnSink,
  type ChatTurn,
} from '../src/features/flow-editor/runs/chat-turns';
import {
  buildRunInputs,
  initialValues,
  mimeTypeOf,
  validateRunInputs,
} from '../src/features/flow-editor/runs/input-values';

const field = (name: string, type: InputFieldType, isMandatory = false): InputCustomField => ({
  name,
  type,
  isMandatory,
});
const file = (name: string, type: string, text = 'abc') => new File([text], name, { type });

describe('run inputs: defaults and validation', () => {
  it('defaults per type: string empty, number 1, boolean false, JSON samples, files empty', () => {
    const values = initialValues([
      field('s', 'string'),
      field('n', 'number'),
      field('b', 'boolean'),
      field('o', 'object'),
      field('l', 'string[]'),
      field('m', 'ChatMessage[]'),
      field('i', 'image'),
      field('is', 'image[]'),
      field('a', 'audio[]'),
      field('p', 'pdf'),
    ]);
    expect(values).toMatchObject({ s: '', n: 1, b: false, i: null, is: [], a: [], p: null });
    expect(JSON.parse(values.o as string)).toEqual({ key: 'value' });
    expect(JSON.parse(values.l as string)).toEqual(['item1', 'item2']);
    expect(JSON.parse(values.m as string)).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('mandatory, JSON shape, numbers and file types are checked', () => {
    const fields = [
      field('req', 'string', true),
      field('obj', 'object'),
      field('list', 'string[]'),
      field('nums', 'number[]'),
      field('msgs', 'ChatMessage[]'),
      field('bad', 'object'),
      field('n', 'number'),
      field('img', 'image'),
      field('doc', 'pdf'),
      field('ok', 'object[]'),
    ];
    const errors = validateRunInputs(fields, {
      req: '  ',
      obj: '[1]',
      list: '{"a":1}',
      nums: '[1, "2"]',
      msgs: '[{"content":"x"}]',
      bad: '{nope',
      n: 'abc',
      img: file('a.txt', 'text/plain'),
      doc: file('a.docx', ''),
      ok: '[{"a": 1}]',
    });
    expect(Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v.key]))).toEqual({
      req: 'chatPage.errors.required',
      obj: 'flowRuns.form.expectedObject',
      list: 'flowRuns.form.expectedList',
      nums: 'flowRuns.form.expectedNumbers',
      msgs: 'flowRuns.form.expectedMessages',
      bad: 'flowRuns.form.invalidJson',
      n: 'chatPage.errors.invalidNumber',
      img: 'chatPage.errors.invalidImage',
      doc: 'chatPage.errors.invalidFile',
    });
  });
});

describe('run inputs: the values sent', () => {
  it('text as typed, numbers, booleans, JSON parsed; blank optional values left out', async () => {
    const fields = [
      field('s', 'string'),
      field('n', 'number'),
      field('blankN', 'number'),
      field('b', 'boolean'),
      field('o', 'object'),
      field('l', 'number[]'),
      field('m', 'ChatMessage[]'),
      field('blankO', 'object'),
    ];
    const inputs = await buildRunInputs(fields, {
      s: ' 42 ',
      n: '3.5',
      blankN: '',
      b: 'true',
      o: '{"a": [1]}',
      l: '[1, 2]',
      m: '[{"role":"user","content":"hi"}]',
      blankO: ' ',
    });
    expect(inputs).toEqual({
      s: ' 42 ',
      n: 3.5,
      b: true,
      o: { a: [1] },
      l: [1, 2],
      m: [{ role: 'user', content: 'hi' }],
    });
  });

  it('files become file values {name, mimeType, dataUrl, size}; lists for image[] and audio[]', async () => {
    const fields = [
      field('img', 'image'),
      field('imgs', 'image[]'),
      field('snd', 'audio'),
      field('sounds', 'audio[]'),
      field('doc', 'pdf'),
      field('notes', 'markdown'),
      field('table', 'csv'),
      field('none', 'docx'),
      field('noneList', 'image[]'),
    ];
    const inputs = await buildRunInputs(fields, {
      img: file('a.png', 'image/png', 'PNG'),
      imgs: [file('b.gif', 'image/gif'), file('c.webp', 'image/webp')],
      snd: file('s.mp3', 'audio/mpeg'),
      sounds: [file('t.wav', '')],
      doc: file('d.pdf', 'application/pdf'),
      notes: file('n.md', '', '# Hi'),
      table: file('t.csv', 'text/csv'),
      none: null,
      noneList: [],
    });
    expect(inputs.img).toEqual({
      name: 'a.png',
      mimeType: 'image/png',
      dataUrl: `data:image/png;base64,${btoa('PNG')}`,
      size: 3,
    });
    expect((inputs.imgs as { name: string }[]).map((f) => f.name)).toEqual(['b.gif', 'c.webp']);
    expect(inputs.snd).toMatchObject({ name: 's.mp3', mimeType: 'audio/mpeg' });
    expect(inputs.sounds).toEqual([expect.objectContaining({ name: 't.wav', mimeType: 'audio/wav' })]);
    expect(inputs.doc).toMatchObject({ mimeType: 'application/pdf', size: 3 });
    expect(inputs.notes).toMatchObject({ name: 'n.md', mimeType: 'text/markdown', size: 4 });
    expect((inputs.notes as { dataUrl: string }).dataUrl).toMatch(/^data:/);
    expect(inputs.table).toMatchObject({ mimeType: 'text/csv' });
    expect(inputs).not.toHaveProperty('none');
    expect(inputs).not.toHaveProperty('noneList');
    expect(mimeTypeOf(file('x.unknown', ''))).toBe('application/octet-stream');
  });
});

describe('chat turns', () => {
  const turns: ChatTurn[] = [
    { id: '1', role: 'user', content: 'hi', state: 'done' },
    { id: '2', role: 'assistant', content: 'hello', state: 'done' },
    { id: '3', role: 'user', content: 'broken?', state: 'done' },
    { id: '4', role: 'assistant', content: '', state: 'error', error: 'boom' },
  ];

  it('history holds the answered exchanges; inputs are query, history and the additional inputs', () => {
    expect(historyOf(turns)).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    expect(turnInputs('next', turns, { lang: 'fr' })).toEqual({
      query: 'next',
      history: historyOf(turns),
      lang: 'fr',
    });
    expect(
      additionalFields([field('query', 'string'), field('history', 'object[]'), field('x', 'string')]),
    ).toEqual([field('x', 'string')]);
  });

  it('a turn streams text and keeps its sources, then the final output replaces the text; errors become the message error', () => {
    const base = { event: vi.fn(), load: vi.fn() };
    let turn: ChatTurn = { id: 'a', role: 'assistant', content: '', state: 'thinking' };
    const sink = turnSink(base, (patch) => (turn = patch(turn)));
    const events: FlowStreamEvent[] = [
      { type: 'text', node_id: 'llm', text: 'Hel' },
      { type: 'text', node_id: 'llm', text: 'lo' },
    ];
    for (const e of events) sink.event(e, '1');
    expect(turn).toMatchObject({ state: 'streaming', content: 'Hello' });
    const source = {
      collection_id: 'c',
      collection_name: 'Docs',
      document_id: 'd',
      filename: 'guide.md',
      chunk_index: 0,
      score: 0.5,
      excerpt: 'Hello',
    };
    sink.event({ type: 'sources', node_id: 'knowledge_retrieve_ab12', sources: [source] }, '2');
    sink.event({ type: 'execution_completed', run_id: 'r', outputs: {}, final_output: 'Hello!' });
    expect(turn).toMatchObject({ state: 'done', content: 'Hello!', empty: false, sources: [source] });
    expect(base.event).toHaveBeenCalledTimes(4);

    sink.event({ type: 'execution_completed', run_id: 'r', outputs: {}, final_output: '' });
    expect(turn.empty).toBe(true);
    sink.event({ type: 'execution_error', run_id: 'r', error: { message: 'Model down' }, status: 'failed' });
    expect(turn).toMatchObject({ state: 'error', error: 'Model down' });
  });
});
