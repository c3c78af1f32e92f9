import { describe, expect, it } from 'vitest';
import { checkImages, MAX_IMAGES } from '../src/features/chat/image-upload';
import { buildInputData, validateInputs } from '../src/features/chat/input-data';
import {
  acceptFor,
  coerceBoolean,
  coerceValue,
  defaultValue,
  defaultValues,
  DOCUMENT_EXTENSIONS,
  parseChatInput,
  validateInput,
  type InputField,
} from '../src/features/chat/input-fields';

const file = (name: string, type: string, text = 'x') => new File([text], name, { type });
const field = (type: InputField['type'], is_mandatory = false, name = 'f'): InputField => ({
  name,
  type,
  is_mandatory,
});
const keyOf = (type: InputField['type'], value: unknown) =>
  validateInput(field(type), value as never)?.key ?? null;

describe('input field defaults', () => {
  it('string empty, number 1, boolean false, objects and arrays sample JSON, files empty', () => {
    expect(defaultValue('string')).toBe('');
    expect(defaultValue('number')).toBe(1);
    expect(defaultValue('boolean')).toBe(false);
    for (const type of ['object', 'string[]', 'number[]', 'object[]', 'ChatMessage[]'] as const) {
      const sample = defaultValue(type);
      expect(typeof sample).toBe('string');
      expect(() => JSON.parse(sample as string), type).not.toThrow();
    }
    expect(Array.isArray(JSON.parse(defaultValue('string[]') as string))).toBe(true);
    for (const type of ['image', 'audio', 'pdf', 'pptx', 'markdown', 'csv', 'json', 'docx', 'odt'] as const) {
      expect(defaultValue(type), type).toBeNull();
    }
    expect(defaultValue('image[]')).toEqual([]);
    expect(defaultValue('audio[]')).toEqual([]);
    expect(defaultValues([field('number', false, 'n'), field('boolean', false, 'b')])).toEqual({
      n: 1,
      b: false,
    });
  });

  it('accepted extensions per document type', () => {
    expect(DOCUMENT_EXTENSIONS).toEqual({
      pdf: ['.pdf'],
      pptx: ['.pptx'],
      markdown: ['.md', '.markdown'],
      csv: ['.csv'],
      json: ['.json'],
      docx: ['.docx'],
      odt: ['.odt'],
    });
    expect(acceptFor('markdown')).toBe('.md,.markdown');
    expect(acceptFor('image')).toBe('image/jpeg,image/png,image/gif,image/webp');
  });
});

describe('input validation', () => {
  it('images: jpeg, png, gif or webp files, or data:image/ strings', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif', 'image/webp']) {
      expect(keyOf('image', file('a', type))).toBeNull();
    }
    expect(keyOf('image', 'data:image/png;base64,AAAA')).toBeNull();
    expect(keyOf('image', file('a.svg', 'image/svg+xml'))).toBe('chatPage.errors.invalidImage');
    expect(keyOf('image', 'https://example.com/a.png')).toBe('chatPage.errors.invalidImage');
    expect(keyOf('image[]', [file('a', 'image/png'), 'data:image/gif;base64,R0'])).toBeNull();
    expect(keyOf('image[]', [file('a', 'image/png'), file('b.txt', 'text/plain')])).toBe(
      'chatPage.errors.invalidImageArray',
    );
  });

  it('audio: mp3, mp4, mpeg, m4a, wav or webm, or data:audio/ strings', () => {
    expect(keyOf('audio', file('a.mp3', 'audio/mpeg'))).toBeNull();
    expect(keyOf('audio', file('a.wav', 'audio/x-wav'))).toBeNull();
    expect(keyOf('audio', file('a.m4a', ''))).toBeNull();
    expect(keyOf('audio', file('a.webm', 'audio/webm'))).toBeNull();
    expect(keyOf('audio', 'data:audio/wav;base64,UklG')).toBeNull();
    expect(keyOf('audio', file('a.ogg', 'audio/ogg'))).toBe('chatPage.errors.invalidAudio');
    expect(keyOf('audio', 'data:image/png;base64,AA')).toBe('chatPage.errors.invalidAudio');
    expect(keyOf('audio[]', [file('a.mp3', 'audio/mpeg')])).toBeNull();
    expect(keyOf('audio[]', [file('a.flac', 'audio/flac')])).toBe('chatPage.errors.invalidAudioArray');
  });

  it('documents by extension', () => {
    expect(keyOf('pdf', file('Report.PDF', 'application/pdf'))).toBeNull();
    expect(keyOf('markdown', file('notes.markdown', 'text/markdown'))).toBeNull();
    expect(keyOf('markdown', file('notes.md', ''))).toBeNull();
    expect(validateInput(field('csv'), file('data.xlsx', ''))).toEqual({
      key: 'chatPage.errors.invalidFile',
      params: { extensions: '.csv' },
    });
  });

  it('mandatory fields need a value; optional empty ones pass', () => {
    expect(keyOf('string', '')).toBeNull();
    expect(validateInput(field('string', true), '  ')?.key).toBe('chatPage.errors.required');
    expect(validateInput(field('image[]', true), [])?.key).toBe('chatPage.errors.required');
    expect(validateInput(field('pdf', true), null)?.key).toBe('chatPage.errors.required');
    expect(validateInput(field('boolean', true), false)).toBeNull();
    expect(keyOf('number', 'abc')).toBe('chatPage.errors.invalidNumber');
    expect(
      validateInputs([field('string', true, 'a'), field('number', false, 'n')], { a: '', n: '2' }),
    ).toEqual({ a: { key: 'chatPage.errors.required' } });
  });
});

describe('coercion', () => {
  it('string-like and array types become text, number a number, boolean is coerced', () => {
    expect(coerceValue('string', 12)).toBe('12');
    expect(coerceValue('string', 'hi')).toBe('hi');
    expect(coerceValue('string[]', ['a', 'b'])).toBe('["a","b"]');
    expect(coerceValue('object[]', '[{}]')).toBe('[{}]');
    expect(coerceValue('number', ' 3.5 ')).toBe(3.5);
    expect(coerceValue('number', 4)).toBe(4);
    expect(coerceValue('boolean', 'true')).toBe(true);
    expect(coerceValue('boolean', 'false')).toBe(false);
    expect(coerceValue('boolean', 1)).toBe(true);
    expect(coerceValue('boolean', 0)).toBe(false);
    expect(coerceBoolean('on')).toBe(true);
    expect(coerceBoolean('')).toBe(false);
  });

  it('chat inputs are parsed as JSON where possible, otherwise trimmed', () => {
    expect(parseChatInput('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseChatInput(' 42 ')).toBe(42);
    expect(parseChatInput('true')).toBe(true);
    expect(parseChatInput('  plain words  ')).toBe('plain words');
    expect(parseChatInput('{not json')).toBe('{not json');
  });

  it('builds the input data: files as data URLs, booleans, numbers, JSON-or-trimmed text', async () => {
    const fields = [
      field('string', false, 's'),
      field('object', false, 'o'),
      field('number', false, 'n'),
      field('boolean', false, 'b'),
      field('image', false, 'img'),
      field('pdf', false, 'doc'),
      field('image[]', false, 'imgs'),
    ];
    const data = await buildInputData(fields, {
      s: '  hello ',
      o: '{"k": "v"}',
      n: '7',
      b: 'true',
      img: file('a.png', 'image/png', 'PNG'),
      doc: null,
      imgs: [],
    });
    expect(data).toEqual({ s: 'hello', o: { k: 'v' }, n: 7, b: true, img: 'data:image/png;base64,UE5H' });
  });
});

describe('chat image attachments', () => {
  it('accepts only image files', () => {
    const result = checkImages([file('a.png', 'image/png'), file('notes.txt', 'text/plain')], 0);
    expect(result.accepted.map((f) => f.name)).toEqual(['a.png']);
    expect(result.errors).toEqual([{ key: 'chatPage.errors.notImage', params: { file: 'notes.txt' } }]);
  });

  it(`allows at most ${MAX_IMAGES} images, counting those already attached`, () => {
    expect(MAX_IMAGES).toBe(4);
    const files = ['1', '2', '3'].map((n) => file(`${n}.jpg`, 'image/jpeg'));
    const result = checkImages(files, 2);
    expect(result.accepted.map((f) => f.name)).toEqual(['1.jpg', '2.jpg']);
    expect(result.errors).toEqual([{ key: 'chatPage.errors.maxImages', params: { limit: 4 } }]);
    expect(checkImages(files, 1).errors).toEqual([]);
  });
});
