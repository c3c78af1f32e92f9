import { describe, expect, it } from 'vitest';
import { completedOutput, finalOutputText, OUTPUT_KEYS } from '../src/features/chat/final-output';

describe('final output text', () => {
  it('takes the keys in order: response, result, output, answer, text', () => {
    expect(OUTPUT_KEYS).toEqual(['response', 'result', 'output', 'answer', 'text']);
    expect(finalOutputText({ text: 't', answer: 'a', output: 'o', result: 'r', response: 'R' })).toBe('R');
    expect(finalOutputText({ text: 't', answer: 'a', output: 'o', result: 'r' })).toBe('r');
    expect(finalOutputText({ text: 't', answer: 'a', output: 'o' })).toBe('o');
    expect(finalOutputText({ text: 't', answer: 'a' })).toBe('a');
    expect(finalOutputText({ text: 't' })).toBe('t');
  });

  it('skips empty and non-string values for the next key', () => {
    expect(finalOutputText({ response: '', result: '   ', output: 42, answer: 'here' })).toBe('here');
  });

  it('looks one level down when the top level has none, before the next nested object', () => {
    expect(finalOutputText({ data: { answer: 'nested' }, status: 'ok' })).toBe('nested');
    expect(finalOutputText({ a: { x: 1 }, b: { result: 'second' } })).toBe('second');
    // The top level wins over nested values.
    expect(finalOutputText({ data: { response: 'deep' }, text: 'top' })).toBe('top');
    // Only one level.
    expect(finalOutputText({ a: { b: { answer: 'too deep' } } })).toBe(
      JSON.stringify({ a: { b: { answer: 'too deep' } } }, null, 2),
    );
  });

  it('pretty-prints anything else as JSON', () => {
    expect(finalOutputText({ score: 3, tags: ['x'] })).toBe('{\n  "score": 3,\n  "tags": [\n    "x"\n  ]\n}');
    expect(finalOutputText([1, 2])).toBe('[\n  1,\n  2\n]');
    expect(finalOutputText(7)).toBe('7');
    expect(finalOutputText(false)).toBe('false');
  });

  it('gives a string as it is', () => {
    expect(finalOutputText('Just **text**')).toBe('Just **text**');
  });

  it('gives null (the "no content" message) for empty outputs', () => {
    for (const empty of [null, undefined, '', '  ', {}, []]) expect(finalOutputText(empty)).toBeNull();
  });

  it('reads the output of an execution_completed event', () => {
    expect(finalOutputText(completedOutput({ event: 'execution_completed', output: { answer: 'A' } }))).toBe(
      'A',
    );
    expect(finalOutputText(completedOutput({ event: 'execution_completed', outputs: 'B' }))).toBe('B');
    expect(finalOutputText(completedOutput({ event: 'execution_completed', response: 'C' }))).toBe('C');
    expect(finalOutputText(completedOutput({ event: 'execution_completed' }))).toBeNull();
  });
});
