import { describe, expect, it } from 'vitest';
import type { MessagePart } from '../src';
import { partsText } from '../src/message-text';

describe('partsText', () => {
  const parts: MessagePart[] = [
    { type: 'text', text: 'What is on' },
    { type: 'image', url: 'https://example.com/a.png' },
    { type: 'text', text: 'this picture?' },
    { type: 'sources', sources: [] },
  ];

  it('joins the text parts, images and sources left out', () => {
    expect(partsText(parts)).toBe('What is on this picture?');
    expect(partsText(parts, '\n')).toBe('What is on\nthis picture?');
  });

  it('takes a string as its own text, and no content as none', () => {
    expect(partsText('plain')).toBe('plain');
    expect(partsText(null)).toBe('');
    expect(partsText(parts.filter((p) => p.type !== 'text'))).toBe('');
  });
});
