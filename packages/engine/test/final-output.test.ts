import { describe, expect, it } from 'vitest';
import { EMPTY_OUTPUT_TEXT, finalOutputText } from '../src';

describe('finalOutputText', () => {
  it('takes the first non-empty string among response, result, output, answer, text', () => {
    expect(finalOutputText({ text: 't', answer: 'a', response: 'r' })).toBe('r');
    expect(finalOutputText({ text: 't', answer: 'a', response: '  ' })).toBe('a');
    expect(finalOutputText({ other: 'x', output: 'o', text: 't' })).toBe('o');
    expect(finalOutputText({ result: 42, text: 't' })).toBe('t');
  });

  it('looks one level down when the top level has none', () => {
    expect(finalOutputText({ data: { answer: 'nested' }, count: 2 })).toBe('nested');
    expect(finalOutputText({ response: { text: 'inside response' } })).toBe('inside response');
    expect(finalOutputText({ a: { b: { response: 'too deep' } } })).toBe(
      JSON.stringify({ a: { b: { response: 'too deep' } } }, null, 2),
    );
  });

  it('pretty-prints everything else as JSON', () => {
    expect(finalOutputText({ count: 2, items: ['a'] })).toBe(
      '{\n  "count": 2,\n  "items": [\n    "a"\n  ]\n}',
    );
    expect(finalOutputText([1, 2])).toBe('[\n  1,\n  2\n]');
  });

  it('gives the fixed sentence for nothing', () => {
    for (const empty of [{}, null, undefined, '', { response: '' }, { a: null, b: [] }]) {
      expect(finalOutputText(empty)).toBe(EMPTY_OUTPUT_TEXT);
    }
    expect(EMPTY_OUTPUT_TEXT).toBe('Response completed but no content was provided.');
  });
});
