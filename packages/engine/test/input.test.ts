import type { InputCustomField } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { coerceInput, readInputs, runFlow } from '../src';
import { chainEdges, flow, inputNode, node, stubServices } from './helpers';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const MP3 = 'data:audio/mpeg;base64,SUQz';

describe('coerceInput', () => {
  it('turns values into text for string fields', () => {
    expect(coerceInput('string', 'hi', 'x')).toBe('hi');
    expect(coerceInput('string', 12, 'x')).toBe('12');
    expect(coerceInput('string', { a: 1 }, 'x')).toBe('{"a":1}');
  });

  it('reads numbers and booleans, and refuses what is neither', () => {
    expect(coerceInput('number', ' 4.5 ', 'x')).toBe(4.5);
    expect(coerceInput('number', 7, 'x')).toBe(7);
    expect(() => coerceInput('number', 'seven', 'The input "n"')).toThrow('The input "n" must be a number.');
    expect(coerceInput('boolean', 'TRUE', 'x')).toBe(true);
    expect(coerceInput('boolean', 'no', 'x')).toBe(false);
    expect(coerceInput('boolean', 0, 'x')).toBe(false);
    expect(() => coerceInput('boolean', 'maybe', 'The input "b"')).toThrow(
      'The input "b" must be true or false.',
    );
  });

  it('reads objects and lists, from JSON text too', () => {
    expect(coerceInput('object', '{"a": [1]}', 'x')).toEqual({ a: [1] });
    expect(() => coerceInput('object', '[1]', 'The input "o"')).toThrow('The input "o" must be an object.');
    expect(() => coerceInput('object', '{oops', 'The input "o"')).toThrow('The input "o" is not valid JSON.');
    expect(coerceInput('string[]', ['a', 2, { b: 1 }], 'x')).toEqual(['a', '2', '{"b":1}']);
    expect(coerceInput('string[]', '["a","b"]', 'x')).toEqual(['a', 'b']);
    expect(coerceInput('string[]', 'single', 'x')).toEqual(['single']);
    expect(coerceInput('number[]', '[1, "2"]', 'x')).toEqual([1, 2]);
    expect(() => coerceInput('number[]', [1, 'two'], 'The input "n"')).toThrow(
      'The input "n" item 2 must be a number.',
    );
    expect(coerceInput('object[]', [{ a: 1 }], 'x')).toEqual([{ a: 1 }]);
    expect(() => coerceInput('object[]', [{ a: 1 }, 3], 'The input "o"')).toThrow('item 2 must be an object');
  });

  it('reads chat histories', () => {
    const history = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'image', url: PNG },
        ],
      },
      { role: 'assistant', content: 'Hello!' },
    ];
    expect(coerceInput('ChatMessage[]', history, 'x')).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'image', url: PNG },
        ],
      },
      { role: 'assistant', content: 'Hello!' },
    ]);
    expect(() => coerceInput('ChatMessage[]', [{ role: 'robot', content: 'x' }], 'x')).toThrow(
      /role of user, assistant/,
    );
  });

  it('accepts images and audio as files of the right type or as data: URLs', () => {
    expect(coerceInput('image', PNG, 'x')).toEqual({ name: 'image', mimeType: 'image/png', dataUrl: PNG });
    const photo = { name: 'photo.JPG', mimeType: '', url: 'https://example.com/photo.JPG' };
    expect(coerceInput('image', photo, 'x')).toEqual(photo);
    expect(() =>
      coerceInput(
        'image',
        { name: 'vector.svg', mimeType: 'image/svg+xml', dataUrl: 'data:image/svg+xml,<svg/>' },
        'The input "i"',
      ),
    ).toThrow('The input "i": Invalid image format');
    expect(() => coerceInput('image', 'not an image', 'The input "i"')).toThrow('Invalid image format');
    expect(coerceInput('image[]', [PNG, PNG], 'x')).toHaveLength(2);
    expect(() => coerceInput('image[]', [PNG, MP3], 'The input "i"')).toThrow(
      'The input "i": Invalid image array format',
    );
    expect(
      coerceInput('audio', { name: 'talk.m4a', mimeType: 'audio/x-m4a', dataUrl: MP3 }, 'x'),
    ).toMatchObject({ name: 'talk.m4a' });
    expect(coerceInput('audio', MP3, 'x')).toMatchObject({ mimeType: 'audio/mpeg' });
    expect(() => coerceInput('audio', PNG, 'The input "a"')).toThrow('Invalid audio format');
    expect(() => coerceInput('audio[]', 'x', 'The input "a"')).toThrow('Invalid audio array format');
  });

  it('checks document files by extension or media type', () => {
    const pdf = {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      dataUrl: 'data:application/pdf;base64,JVBER',
    };
    expect(coerceInput('pdf', pdf, 'x')).toEqual(pdf);
    expect(
      coerceInput(
        'markdown',
        { name: 'README.markdown', mimeType: '', url: 'https://x/README.markdown' },
        'x',
      ),
    ).toBeTruthy();
    expect(
      coerceInput('csv', { name: 'export', mimeType: 'text/csv', dataUrl: 'data:text/csv,a%2Cb' }, 'x'),
    ).toBeTruthy();
    expect(() => coerceInput('docx', pdf, 'The input "d"')).toThrow('The input "d" must be a .docx file.');
    expect(() => coerceInput('markdown', 'plain text', 'The input "m"')).toThrow(
      'must be a .md or .markdown file',
    );
  });
});

describe('the input node', () => {
  const fields: InputCustomField[] = [
    { name: 'age', type: 'number', isMandatory: true },
    { name: 'tags', type: 'string[]', isMandatory: false },
    { name: 'subscribed', type: 'boolean', isMandatory: false },
    { name: 'notes', type: 'string', isMandatory: false },
  ];

  it('gives query, history and each custom field, coerced, with empty values for optional ones', () => {
    expect(readInputs(fields, { query: 'Hello', age: '30', extra: 'ignored' })).toEqual({
      query: 'Hello',
      history: [],
      age: 30,
      tags: [],
      subscribed: false,
      notes: '',
    });
  });

  it('fails a run whose mandatory input is missing', async () => {
    const input = inputNode(fields);
    const out = node('output', 'ou01', { response: '{{#input_in01.age#}}' });
    const config = flow([input, out], chainEdges(input, out));
    const missing = await runFlow({ config, inputs: { age: '' }, services: stubServices() });
    expect(missing.status).toBe('failed');
    expect(missing.error).toBe('input in01 failed: The input "age" is required.');
    const ok = await runFlow({ config, inputs: { age: 5 }, services: stubServices() });
    expect(ok.text).toBe('5');
  });
});
