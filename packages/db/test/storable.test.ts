import { describe, expect, it } from 'vitest';
import { storableJson, storableJsonText, storableText } from '../src';

describe('storable text and JSON: what Postgres text and jsonb accept', () => {
  it('replaces NUL and lone surrogates in text, and keeps clean text (emoji included) as it is', () => {
    expect(storableText('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('x\uD800y\uDC00z')).toBe('x\uFFFDy\uFFFDz');
    const clean = 'Grüße 👋 — done';
    expect(storableText(clean)).toBe(clean);
  });

  it('cleans keys and values at any depth, and leaves escaped backslashes alone', () => {
    const value = { 'k\u0000': ['v\u0000', { deep: 'lone \uDBFF' }], path: 'C:\\u0000dir', ok: '😀' };
    const stored = storableJson(value);
    expect(stored).toEqual({
      'k\uFFFD': ['v\uFFFD', { deep: 'lone \uFFFD' }],
      path: 'C:\\u0000dir',
      ok: '😀',
    });
    const clean = { a: [1, 'two', { three: null }] };
    expect(storableJson(clean)).toBe(clean);
  });

  it('cleans JSON text in one pass, even nested thousands of levels deep', () => {
    const depth = 10_000;
    const json = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    const out = storableJsonText(json);
    expect(out).toBe(`${'['.repeat(depth)}"\\ufffd"${']'.repeat(depth)}`);
    expect(storableJsonText('"\\\\\\u0000"')).toBe('"\\\\\\ufffd"');
    expect(storableJsonText('"\\\\u0000"')).toBe('"\\\\u0000"');
  });
});
