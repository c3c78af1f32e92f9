import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { htmlSplit, markdownSplit, recursiveSplit } from '../src';
import { node, runNode, stubServices } from './helpers';

const chars = {
  separators: ['\n\n', '\n', ' ', ''],
  isSeparatorRegex: false,
  length: (t: string) => t.length,
};

describe('recursiveSplit', () => {
  it('splits on the first separator present and merges pieces up to the chunk size', () => {
    expect(
      recursiveSplit('Hello world. This is a test.', { ...chars, chunkSize: 10, chunkOverlap: 0 }),
    ).toEqual(['Hello', 'world.', 'This is a', 'test.']);
  });

  it('carries the end of a chunk into the next within the overlap', () => {
    expect(recursiveSplit('a b c d e f g', { ...chars, chunkSize: 5, chunkOverlap: 2 })).toEqual([
      'a b c',
      'c d',
      'd e',
      'e f',
      'f g',
    ]);
  });

  it('keeps paragraphs whole when they fit, going down to lines and words only for those that do not', () => {
    expect(
      recursiveSplit('para one.\n\npara two is longer.', { ...chars, chunkSize: 20, chunkOverlap: 0 }),
    ).toEqual(['para one.', 'para two is longer.']);
  });

  it('cuts text without any separator into characters', () => {
    expect(recursiveSplit('abcdefghij', { ...chars, chunkSize: 4, chunkOverlap: 0 })).toEqual([
      'abcd',
      'efgh',
      'ij',
    ]);
  });

  it('takes regular expressions as separators when told to', () => {
    const options = {
      ...chars,
      separators: ['\\d+\\.', ' '],
      isSeparatorRegex: true,
      chunkSize: 15,
      chunkOverlap: 0,
    };
    expect(recursiveSplit('1. alpha beta 2. gamma delta', options)).toEqual([
      '1. alpha beta',
      '2. gamma delta',
    ]);
  });

  it('keeps every place a plain separator begins, overlapping ones included, as before', () => {
    // '\n\n' begins at 1 and at 2 in 'a\n\n\nb': the pieces are 'a', '\n' and '\n\nb'.
    const options = { ...chars, separators: ['\n\n', ' '], chunkSize: 3, chunkOverlap: 0 };
    expect(recursiveSplit('a\n\n\nbbbb', options)).toEqual(['a', '\n\nbbbb']);
    const plain = { ...chars, separators: ['.', '+'], chunkSize: 2, chunkOverlap: 0 };
    expect(recursiveSplit('x.y+z', plain)).toEqual(['x', '.y', '+z']);
  });

  it('runs separator patterns on a linear-time engine: nested quantifiers on long texts', () => {
    // On a backtracking engine each pattern takes exponential time on a run of "a" followed by "!"
    // (30 characters took 23 s): without the fix this test never ends.
    const text = 'a'.repeat(5000) + '!';
    for (const pattern of ['(a+)+$', '(a|a)+$', '(a*)*$', '(?:a|aa)+b', '((a+)*)+$']) {
      const options = { ...chars, separators: [pattern, '!'], isSeparatorRegex: true };
      // No pattern matches: the next separator, "!", splits; the run of "a" stays whole.
      expect(recursiveSplit(text, { ...options, chunkSize: 4000, chunkOverlap: 0 })).toEqual([
        'a'.repeat(5000),
        '!',
      ]);
    }
    const nested = { ...chars, separators: [String.raw`\((a+)+!\)`], isSeparatorRegex: true };
    expect(recursiveSplit('xx(aa!)yy(a!)zz', { ...nested, chunkSize: 5, chunkOverlap: 0 })).toEqual([
      'xx',
      '(aa!)yy',
      '(a!)zz',
    ]);
  });

  it('splits where pattern matches begin, without overlapping, keeping each match with what follows', () => {
    // A chunk size of 1 shows the pieces as cut. A lookahead split cut '12.' into '1' and '2.'.
    const options = { ...chars, isSeparatorRegex: true, chunkSize: 1, chunkOverlap: 0 };
    expect(recursiveSplit('12. ab 345. cd', { ...options, separators: [String.raw`\d+\.`] })).toEqual([
      '12. ab ',
      '345. cd',
    ]);
    // Empty matches move on by one character, surrogate pairs kept whole.
    expect(recursiveSplit('😀xx😀', { ...options, separators: ['x*'] })).toEqual(['😀', 'xx', '😀']);
  });

  it('refuses patterns the linear-time engine cannot take, saying which and why', () => {
    const split = (pattern: string) => () =>
      recursiveSplit('aa', {
        ...chars,
        separators: [pattern],
        isSeparatorRegex: true,
        chunkSize: 9,
        chunkOverlap: 0,
      });
    expect(split(String.raw`(a)\1`)).toThrow(
      String.raw`"(a)\\1" is not an accepted regular expression: backreferences (\1, \k<name>) are not supported`,
    );
    expect(split(String.raw`(?<n>a)\k<n>`)).toThrow(/backreferences/);
    expect(split('(?=a)')).toThrow(/lookahead and lookbehind .* are not supported/);
    expect(split('(?<=a)b')).toThrow(/lookahead and lookbehind/);
    expect(split('(?!a)')).toThrow(/lookahead and lookbehind/);
    expect(split('[a')).toThrow(/missing closing \]/);
  });

  it('refuses an overlap as large as the chunk', () => {
    expect(() => recursiveSplit('x', { ...chars, chunkSize: 5, chunkOverlap: 5 })).toThrow(/must be smaller/);
  });
});

describe('markdownSplit', () => {
  const md = [
    '# Intro',
    'Hello there.',
    '',
    '## Setup',
    'Install it.',
    '```sh',
    '# not a header',
    '```',
    '## Usage',
    'Run it.',
    '# Next',
    'Bye.',
  ].join('\n');
  const headers = [
    ['#', 'Header 1'],
    ['##', 'Header 2'],
  ] as const;

  it('gives one chunk per section with the headers above it, never splitting inside code fences', () => {
    expect(markdownSplit(md, { headers, returnEachLine: false, stripHeaders: true })).toEqual([
      { content: 'Hello there.', metadata: { 'Header 1': 'Intro' } },
      {
        content: 'Install it.\n```sh\n# not a header\n```',
        metadata: { 'Header 1': 'Intro', 'Header 2': 'Setup' },
      },
      { content: 'Run it.', metadata: { 'Header 1': 'Intro', 'Header 2': 'Usage' } },
      { content: 'Bye.', metadata: { 'Header 1': 'Next' } },
    ]);
  });

  it('keeps the header lines when not stripping them', () => {
    const chunks = markdownSplit('# A\ntext a\n## B\ntext b', {
      headers,
      returnEachLine: false,
      stripHeaders: false,
    });
    expect(chunks).toEqual([
      { content: '# A\ntext a', metadata: { 'Header 1': 'A' } },
      { content: '## B\ntext b', metadata: { 'Header 1': 'A', 'Header 2': 'B' } },
    ]);
  });

  it('joins a lone header line to the section it introduces', () => {
    const chunks = markdownSplit('# A\n\n## B\ntext', {
      headers,
      returnEachLine: false,
      stripHeaders: false,
    });
    expect(chunks).toEqual([
      { content: '# A  \n## B\ntext', metadata: { 'Header 1': 'A', 'Header 2': 'B' } },
    ]);
  });

  it('gives each block of lines on its own when asked', () => {
    const chunks = markdownSplit('# A\none\n\ntwo', { headers, returnEachLine: true, stripHeaders: true });
    expect(chunks).toEqual([
      { content: 'one', metadata: { 'Header 1': 'A' } },
      { content: 'two', metadata: { 'Header 1': 'A' } },
    ]);
  });
});

describe('htmlSplit', () => {
  const html = `<html><head><title>T</title><style>p { color: red }</style></head><body>
    <h1>Guide</h1><p>Welcome &amp; hello.</p>
    <h2>Install</h2><p>Run <b>npm&nbsp;i</b>.</p><script>alert("no")</script><!-- hidden -->
    <h2>Use</h2><ul><li>One</li><li>Two</li></ul>
    <h1>Other</h1><p>End &#x263A;</p></body></html>`;
  const headers = [
    ['h1', 'Header 1'],
    ['h2', 'Header 2'],
  ] as const;

  it('gives the text under each header with the headers above it, without scripts, styles or comments', () => {
    expect(htmlSplit(html, { headers, returnEachElement: false })).toEqual([
      { content: 'Welcome & hello.', metadata: { 'Header 1': 'Guide' } },
      { content: 'Run npm i.', metadata: { 'Header 1': 'Guide', 'Header 2': 'Install' } },
      { content: 'One\nTwo', metadata: { 'Header 1': 'Guide', 'Header 2': 'Use' } },
      { content: 'End ☺', metadata: { 'Header 1': 'Other' } },
    ]);
  });

  it('gives each element on its own when asked', () => {
    const chunks = htmlSplit(html, { headers, returnEachElement: true });
    expect(chunks.filter((c) => c.metadata['Header 2'] === 'Use').map((c) => c.content)).toEqual([
      'One',
      'Two',
    ]);
  });

  it('leaves unknown entities and Object.prototype names alone', () => {
    expect(htmlSplit('<p>&constructor; &bogus; &lt;</p>', { headers, returnEachElement: false })).toEqual([
      { content: '&constructor; &bogus; <', metadata: {} },
    ]);
  });
});

describe('splitter nodes', () => {
  it('split documents and keep their metadata', async () => {
    const docs = [{ pageContent: 'alpha beta gamma', metadata: { source: 's1' } }];
    const { outputs } = await runNode(
      node('recursive_splitter', 'rs01', { documents_to_split: docs, chunk_size: 11, chunk_overlap: 0 }),
      stubServices(),
    );
    expect(outputs).toEqual({
      documents: [
        { pageContent: 'alpha beta', metadata: { source: 's1' } },
        { pageContent: 'gamma', metadata: { source: 's1' } },
      ],
    });
  });

  it('count tokens when asked', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const { outputs } = await runNode(
      node('recursive_splitter', 'rs01', {
        documents_to_split: text,
        chunk_size: 20,
        chunk_overlap: 0,
        length_function: 'tokens',
      }),
      stubServices(),
    );
    const chunks = (outputs!.documents as { pageContent: string }[]).map((d) => d.pageContent);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(encode(chunk).length).toBeLessThanOrEqual(20);
    expect(chunks.join(' ')).toBe(text);
  });

  it('refuse an overlap as large as the chunk', async () => {
    const { error } = await runNode(
      node('recursive_splitter', 'rs01', { documents_to_split: 'x', chunk_size: 100, chunk_overlap: 100 }),
      stubServices(),
    );
    expect(error).toMatch(/The chunk overlap \(100\) must be smaller than the chunk size \(100\)\.$/);
  });

  it('run nested-quantifier separators and name the separator the engine refuses', async () => {
    const text = 'a'.repeat(5000) + '!';
    const ok = await runNode(
      node('recursive_splitter', 'rs01', {
        documents_to_split: text,
        chunk_size: 4000,
        chunk_overlap: 0,
        is_separator_regex: true,
        separators: ['(a+)+$', '!'],
      }),
      stubServices(),
    );
    expect((ok.outputs!.documents as { pageContent: string }[]).map((d) => d.pageContent)).toEqual([
      'a'.repeat(5000),
      '!',
    ]);
    const refused = await runNode(
      node('recursive_splitter', 'rs01', {
        documents_to_split: 'abab',
        is_separator_regex: true,
        separators: JSON.stringify(['\n', String.raw`(ab)\1`]),
      }),
      stubServices(),
    );
    expect(refused.error).toContain(
      String.raw`Separator 2 ("(ab)\\1") is not accepted as a regular expression: backreferences`,
    );
  });

  it('markdown and html splitters add header metadata to the document metadata', async () => {
    const md = await runNode(
      node('markdown_splitter', 'ms01', {
        documents_to_split: { pageContent: '# T\nbody', metadata: { id: 1 } },
      }),
      stubServices(),
    );
    expect(md.outputs).toEqual({
      documents: [{ pageContent: 'body', metadata: { id: 1, 'Header 1': 'T' } }],
    });
    const html = await runNode(
      node('html_splitter', 'hs01', { documents_to_split: '<h2>T</h2><p>body</p>' }),
      stubServices(),
    );
    expect(html.outputs).toEqual({ documents: [{ pageContent: 'body', metadata: { 'Header 2': 'T' } }] });
  });
});
