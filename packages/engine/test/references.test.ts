import { describe, expect, it } from 'vitest';
import {
  hasReferences,
  parseReferences,
  referencedNodeIds,
  resolvePath,
  resolveText,
  resolveValue,
  wholeReference,
} from '../src';

const outputs: Record<string, Record<string, unknown>> = {
  input_ab12: { query: 'hello', count: 3, flag: false, history: [] },
  llm_ab12: {
    response: 'Hi there',
    result: { items: [{ name: 'first', tags: ['a', 'b'] }, { name: 'second' }], total: 2 },
    nothing: null,
  },
};
const lookup = (id: string) => outputs[id];

describe('parseReferences', () => {
  it('finds every reference in order, with its output and path', () => {
    const refs = parseReferences('A {{#input_ab12.query#}} and {{#llm_ab12.result.items.0.name#}}.');
    expect(refs).toEqual([
      { raw: '{{#input_ab12.query#}}', nodeId: 'input_ab12', output: 'query', path: [] },
      {
        raw: '{{#llm_ab12.result.items.0.name#}}',
        nodeId: 'llm_ab12',
        output: 'result',
        path: ['items', '0', 'name'],
      },
    ]);
  });

  it('ignores text that only looks like a reference', () => {
    expect(parseReferences('{{input_ab12.query}} {{#no_dot#}} {#input_ab12.query#} plain')).toEqual([]);
  });

  it('tells a whole-value reference from an embedded one', () => {
    expect(wholeReference('{{#llm_ab12.response#}}')?.nodeId).toBe('llm_ab12');
    expect(wholeReference(' {{#llm_ab12.response#}}')).toBeNull();
    expect(wholeReference('{{#llm_ab12.response#}}{{#llm_ab12.response#}}')).toBeNull();
  });
});

describe('resolving', () => {
  it('replaces references inside a longer text, JSON for non-strings, nothing for missing values', () => {
    expect(
      resolveText('Q: {{#input_ab12.query#}} ({{#input_ab12.count#}}, {{#input_ab12.flag#}})', lookup),
    ).toBe('Q: hello (3, false)');
    expect(resolveText('Items: {{#llm_ab12.result.items.0.tags#}}', lookup)).toBe('Items: ["a","b"]');
    expect(resolveText('[{{#llm_ab12.nothing#}}][{{#ghost_0000.x#}}][{{#llm_ab12.missing#}}]', lookup)).toBe(
      '[][][]',
    );
  });

  it('keeps the raw type of a whole-value reference', () => {
    expect(resolveText('{{#input_ab12.count#}}', lookup)).toBe(3);
    expect(resolveText('{{#input_ab12.flag#}}', lookup)).toBe(false);
    expect(resolveText('{{#llm_ab12.result#}}', lookup)).toBe(outputs.llm_ab12!.result);
    expect(resolveText('{{#ghost_0000.x#}}', lookup)).toBeNull();
  });

  it('follows nested paths through objects and arrays', () => {
    expect(resolveText('{{#llm_ab12.result.items.0.name#}}', lookup)).toBe('first');
    expect(resolveText('{{#llm_ab12.result.items.1.name#}}', lookup)).toBe('second');
    expect(resolveText('{{#llm_ab12.result.items.0.tags.1#}}', lookup)).toBe('b');
    expect(resolveText('{{#llm_ab12.result.items.5.name#}}', lookup)).toBeNull();
    expect(resolveText('{{#llm_ab12.response.length#}}', lookup)).toBeNull();
    expect(resolvePath('llm_ab12.result.total', lookup)).toBe(2);
  });

  it('does not walk into inherited properties', () => {
    expect(resolveText('{{#llm_ab12.result.constructor#}}', lookup)).toBeNull();
    expect(resolveText('{{#llm_ab12.toString#}}', lookup)).toBeNull();
  });

  it('resolves deep through objects and arrays and leaves values without references untouched', () => {
    const value = {
      a: ['{{#input_ab12.count#}}', 'x {{#input_ab12.query#}}'],
      b: { c: 1, d: '{{#llm_ab12.result.total#}}' },
    };
    expect(resolveValue(value, lookup)).toEqual({ a: [3, 'x hello'], b: { c: 1, d: 2 } });
    expect(resolveValue(42, lookup)).toBe(42);
  });
});

describe('listing references', () => {
  it('lists each referenced node once, deep through objects and arrays', () => {
    const value = {
      prompt: '{{#input_ab12.query#}} {{#llm_ab12.response#}}',
      list: [{ deep: ['{{#input_ab12.count#}}', '{{#reranker_zz99.documents.0#}}'] }],
      n: 5,
    };
    expect(referencedNodeIds(value)).toEqual(['input_ab12', 'llm_ab12', 'reranker_zz99']);
    expect(hasReferences(value)).toBe(true);
    expect(hasReferences({ a: ['no', { b: 'refs {{here}}' }] })).toBe(false);
  });
});
