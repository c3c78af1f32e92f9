import { type FieldMeta, NODE_CATALOG } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import {
  fieldError,
  isFieldVisible,
  jsonText,
  jsonValue,
  numberValue,
} from '../src/features/flow-editor/field-rules';
import { nodeSummary } from '../src/features/flow-editor/node-look';

const meta = (over: Partial<FieldMeta>): FieldMeta => ({
  name: 'f',
  label: 'Field',
  kind: 'text',
  required: false,
  ...over,
});

describe('what the inspector says under a field', () => {
  it('a required field must not be empty; an optional one may', () => {
    expect(fieldError(meta({ required: true }), '  ')).toEqual({
      key: 'flow.field.required',
      values: { label: 'Field' },
    });
    expect(fieldError(meta({ required: true }), [])).not.toBeNull();
    expect(fieldError(meta({}), '')).toBeNull();
    expect(fieldError(meta({ required: true }), 'x')).toBeNull();
  });

  it('numbers within their bounds, or a reference', () => {
    const n = meta({ kind: 'number', min: 1, max: 32 });
    expect(fieldError(n, 'abc')).toEqual({ key: 'flow.field.number' });
    expect(fieldError(n, 0)).toEqual({ key: 'flow.field.min', values: { min: 1 } });
    expect(fieldError(n, '40')).toEqual({ key: 'flow.field.max', values: { max: 32 } });
    expect(fieldError(n, 4)).toBeNull();
    expect(fieldError(n, '{{#input_ab12.count#}}')).toBeNull();
  });

  it('JSON fields hold JSON', () => {
    const j = meta({ kind: 'json' });
    expect(fieldError(j, '{"a":')).toEqual({ key: 'flow.field.json' });
    expect(fieldError(j, '{"a": 1}')).toBeNull();
  });
});

describe('values kept from what is typed', () => {
  it('a number when the text is one, else the text', () => {
    expect(numberValue(' 12.5 ')).toBe(12.5);
    expect(numberValue('')).toBe('');
    expect(numberValue('{{#a_1.n#}}')).toBe('{{#a_1.n#}}');
  });

  it('parsed JSON when it parses, else the text; shown back as typed or pretty-printed', () => {
    expect(jsonValue('[["#", "h1"]]')).toEqual([['#', 'h1']]);
    expect(jsonValue('{oops')).toBe('{oops');
    expect(jsonValue(' ')).toBeUndefined();
    expect(jsonText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(jsonText('{oops')).toBe('{oops');
    expect(jsonText(undefined)).toBe('');
  });
});

describe('fields that depend on another', () => {
  it('show when the other field (or its default) has the value', () => {
    const def = NODE_CATALOG.iteration;
    const concurrency = def.fieldMeta.find((m) => m.name === 'concurrency')!;
    expect(isFieldVisible(concurrency, {}, def)).toBe(false);
    expect(isFieldVisible(concurrency, { mode: 'parallel' }, def)).toBe(true);
    expect(isFieldVisible(def.fieldMeta[0]!, {}, def)).toBe(true);
  });
});

describe("a node's face", () => {
  it('shows the first meaningful text, on one line, shortened', () => {
    expect(nodeSummary({ temperature: 0.7, prompt: 'Say\n  hello' })).toBe('Say hello');
    expect(nodeSummary({ url: 'https://x.test' })).toBe('https://x.test');
    expect(nodeSummary({ prompt: 'a'.repeat(100) })).toHaveLength(70);
    expect(nodeSummary([])).toBe('');
    expect(nodeSummary({})).toBe('');
  });
});
