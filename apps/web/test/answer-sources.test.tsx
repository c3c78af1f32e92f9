import type { AnswerSource } from '@atelier/schemas';
import { createElement } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '../src/embed/embed-views';
import { textsFor } from '../src/embed/embed-texts';
import { AnswerSources } from '../src/features/chat/answer-sources';
import { groupSources } from '../src/lib/source-groups';
import { reactRoot } from './react-root';

const source = (document: string | null, chunk: number | null, score: number): AnswerSource => ({
  collection_id: 'c1',
  collection_name: 'Handbook',
  document_id: document && `doc-${document}`,
  filename: document && `${document}.md`,
  chunk_index: chunk,
  score,
  excerpt: `${document ?? 'untitled'} passage ${chunk ?? '?'}`,
});

/** Ten passages from three documents, as a retrieval ranks them, and one of no known document. */
const SOURCES = [
  source('security', 15, 0.37),
  source('process', 87, 0.36),
  source('process', 88, 0.36),
  source('security', 8, 0.36),
  source('security', 0, 0.35),
  source(null, null, 0.34),
  source('leave', 3, 0.3),
  source('security', 1, 0.33),
];

describe('groupSources', () => {
  it('groups passages by document, documents and passages best first; an unknown one stands alone', () => {
    const groups = groupSources(SOURCES);
    expect(groups.map((g) => [g.filename, g.best, g.passages.map((p) => p.chunk_index)])).toEqual([
      ['security.md', 0.37, [15, 8, 0, 1]],
      ['process.md', 0.36, [87, 88]],
      [null, 0.34, [null]],
      ['leave.md', 0.3, [3]],
    ]);
    // The same document in another collection is another source.
    expect(groupSources([source('a', 1, 0.5), { ...source('a', 2, 0.4), collection_id: 'c2' }])).toHaveLength(
      2,
    );
  });
});

describe('sources under an answer', () => {
  const dom = reactRoot();
  beforeAll(() => {
    // jsdom lays nothing out: the embedded chat's scroll to its last message has nothing to do.
    Element.prototype.scrollIntoView ??= () => undefined;
  });
  const texts = (selector: string) =>
    [...dom.container.querySelectorAll(selector)].map((e) => e.textContent?.replace(/\s+/g, ' ').trim());

  it('in the app: one entry per document, opening to its passages with part, score and text', () => {
    dom.render(createElement(AnswerSources, { sources: SOURCES }));
    expect(dom.container.querySelector('summary')?.textContent).toBe('Sources (4)');
    expect(texts('[data-testid=answer-source] > summary')).toEqual([
      'security.md· 4 passages· score 0.37',
      'process.md· 2 passages· score 0.36',
      'Untitled passage· score 0.34',
      'leave.md· part 4· score 0.30',
    ]);
    const security = dom.container.querySelector('[data-testid=answer-source]')!;
    expect(
      [...security.querySelectorAll('[data-testid=answer-source-passage]')].map((e) => e.textContent),
    ).toEqual([
      'part 16 · score 0.37security passage 15',
      'part 9 · score 0.36security passage 8',
      'part 1 · score 0.35security passage 0',
      'part 2 · score 0.33security passage 1',
    ]);
    // A document of one passage shows its text alone (part and score are on its line already).
    const leave = dom.container.querySelectorAll('[data-testid=answer-source]')[3]!;
    expect(leave.querySelector('[data-testid=answer-source-passage]')?.textContent).toBe('leave passage 3');
  });

  it('a passage says its PDF page, its sheet, its slide, its chapter or its email attachment, in the app and the embedded chat', () => {
    const sources: AnswerSource[] = [
      { ...source('report', 4, 0.6), filename: 'report.pdf', page: 12 },
      { ...source('report', 9, 0.5), filename: 'report.pdf', page: 31 },
      { ...source('budget', 2, 0.4), filename: 'budget.xlsx', sheet: 'Q3 $& costs' },
      { ...source('deck', 5, 0.3), filename: 'deck.odp', slide: 6 },
      { ...source('book', 1, 0.25), filename: 'guide.epub', chapter: 'Getting started' },
      { ...source('mail', 2, 0.2), filename: 'kickoff.eml', attachment: 'agenda.txt' },
    ];
    dom.render(createElement(AnswerSources, { sources }));
    expect(texts('[data-testid=answer-source] > summary')).toEqual([
      'report.pdf· 2 passages· score 0.60',
      'budget.xlsx· sheet “Q3 $& costs”· score 0.40',
      'deck.odp· slide 6· score 0.30',
      'guide.epub· chapter “Getting started”· score 0.25',
      'kickoff.eml· attachment “agenda.txt”· score 0.20',
    ]);
    expect(texts('[data-testid=answer-source-passage] > p:first-child').slice(0, 2)).toEqual([
      'page 12 · score 0.60',
      'page 31 · score 0.50',
    ]);
    dom.remount();
    const messages = [{ id: 'a1', role: 'assistant' as const, text: 'Voici.', sources }];
    dom.render(
      createElement(Messages, { greeting: 'Bonjour', messages, streaming: false, texts: textsFor('fr') }),
    );
    expect(texts('[data-testid=embed-sources] details > summary')).toEqual([
      'report.pdf· 2 passages',
      'budget.xlsx· feuille « Q3 $& costs »',
      'deck.odp· diapositive 6',
      'guide.epub· chapitre « Getting started »',
      'kickoff.eml· pièce jointe « agenda.txt »',
    ]);
    expect(texts('[data-testid=embed-sources] details:first-of-type li p.font-medium')).toEqual([
      'page 12',
      'page 31',
    ]);
  });

  it('in the embedded chat, in French: the same documents, each opening to its passages', () => {
    const messages = [{ id: 'a1', role: 'assistant' as const, text: 'Voici.', sources: SOURCES }];
    dom.render(
      createElement(Messages, { greeting: 'Bonjour', messages, streaming: false, texts: textsFor('fr') }),
    );
    expect(texts('[data-testid=embed-sources] details > summary')).toEqual([
      'security.md· 4 passages',
      'process.md· 2 passages',
      'Document sans titre',
      'leave.md· partie 4',
    ]);
    const first = dom.container.querySelector('[data-testid=embed-sources] details')!;
    expect(texts('[data-testid=embed-sources] details:first-of-type li').slice(0, 2)).toEqual([
      'partie 16security passage 15',
      'partie 9security passage 8',
    ]);
    expect(first.textContent).toContain('security passage 1');
  });
});
