import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkInput } from '../src';
import { keywordTerms, parseTextQuery } from '../src/stores/keywords';
import { vectorUnavailable } from './postgres';
import { pgliteSubject, postgresSubject, type StoreSubject } from './store-subjects';

describe('keywords of a question', () => {
  it('drops English and French stopwords, punctuation and elided articles; keeps names whole', () => {
    expect(keywordTerms('When was Debian bookworm released?')).toEqual([
      'when',
      'debian',
      'bookworm',
      'released',
    ]);
    expect(keywordTerms("Comment l'API de Node.js gère-t-elle les erreurs ?")).toEqual([
      'comment',
      'api',
      'node.js',
      'gère-t-elle',
      'erreurs',
    ]);
    expect(keywordTerms('the the THE, a dog... dog')).toEqual(['dog']);
  });

  it('keeps every word of a question made of stopwords only, and at most 32', () => {
    expect(keywordTerms('Who is it?')).toEqual(['who', 'is', 'it']);
    expect(keywordTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
    expect(keywordTerms(' ?! … ')).toEqual([]);
  });

  it('reads quoted phrases (required) and -words (excluded) apart from the keywords', () => {
    expect(parseTextQuery('"annual leave" policy -sick')).toEqual({
      phrases: ['annual leave'],
      excluded: ['sick'],
      keywords: ['policy'],
    });
    expect(parseTextQuery('Is "fork" in the socat manual?')).toEqual({
      phrases: ['fork'],
      excluded: [],
      keywords: ['socat', 'manual'],
    });
    // A hyphen inside a word or between numbers excludes nothing; an unclosed quote runs to the end.
    expect(parseTextQuery('text-embedding-3-large costs 5 - 3')).toEqual({
      phrases: [],
      excluded: [],
      keywords: ['text-embedding-3-large', 'costs', '5', '3'],
    });
    expect(parseTextQuery('-sick "open ended')).toEqual({
      phrases: ['open ended'],
      excluded: ['sick'],
      keywords: [],
    });
  });
});

const chunk = (id: string, content: string): ChunkInput => ({ id, content, embedding: [1, 0] });

function describeKeywords(name: string, makeSubject: () => Promise<StoreSubject>) {
  describe(`full-text search of the built-in store: ${name}`, () => {
    let subject: StoreSubject;
    beforeAll(async () => {
      subject = await makeSubject();
      const store = subject.store();
      await store.createCollection({ name: 'phrases', dimension: 2 });
      await store.upsert('phrases', [
        chunk('a', 'the quick brown fox'),
        chunk('b', 'a brown quick fox'),
        chunk('c', 'brown bread, quick'),
      ]);
      // 60 chunks hold "common"; two of them hold "rare" too.
      await store.createCollection({ name: 'crowd', dimension: 2 });
      await store.upsert(
        'crowd',
        Array.from({ length: 60 }, (_, i) => chunk(`c${i}`, `common words ${i < 2 ? 'rare' : 'plain'}`)),
      );
      await subject.sql.query(`ANALYZE "${subject.schema}".crowd`);
    }, 120_000);
    afterAll(() => subject?.cleanup());

    const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id);

    it('requires a quoted phrase, excludes a -word, ranks by the other keywords', async () => {
      const store = subject.store();
      expect(ids(await store.textSearch('phrases', { query: '"quick brown"', topK: 10 }))).toEqual(['a']);
      expect(ids(await store.textSearch('phrases', { query: 'quick -fox', topK: 10 }))).toEqual(['c']);
      // A question quoting a term: chunks with the term, those with more of the question's keywords first.
      const quoted = await store.textSearch('phrases', { query: 'Where is the "brown" bread?', topK: 10 });
      expect(ids(quoted)[0]).toBe('c');
      expect(ids(quoted).sort()).toEqual(['a', 'b', 'c']);
      expect(await store.textSearch('phrases', { query: '-fox', topK: 10 })).toEqual([]);
      // Without syntax, any keyword: all three, the two holding both first.
      const any = await store.textSearch('phrases', { query: 'quick fox', topK: 10 });
      expect(ids(any.slice(0, 2)).sort()).toEqual(['a', 'b']);
      expect(ids(any.slice(2))).toEqual(['c']);
    });

    it('leaves out a keyword more chunks hold than the bound (by the statistics), unless all are', async () => {
      const bounded = subject.store({ keywordRowsBound: 10 });
      // "common" (60 chunks) is left out: the chunks holding "rare" answer, not all 60.
      expect(ids(await bounded.textSearch('crowd', { query: 'common rare', topK: 100 })).sort()).toEqual([
        'c0',
        'c1',
      ]);
      // Every keyword common: the chunks holding all of them answer.
      expect(await bounded.textSearch('crowd', { query: 'common words', topK: 100 })).toHaveLength(60);
      expect(ids(await bounded.textSearch('crowd', { query: 'common plain', topK: 100 }))).toHaveLength(58);
      // Under the default bound (5,000) every keyword counts: all 60, the two with "rare" first.
      const all = await subject.store().textSearch('crowd', { query: 'common rare', topK: 100 });
      expect(all).toHaveLength(60);
      expect(ids(all.slice(0, 2)).sort()).toEqual(['c0', 'c1']);
    });

    it("reads a collection's chunks and questions in its language: stems, stop words", async () => {
      const store = subject.store();
      const texts = [
        chunk('v', 'Les voyages en train sont remboursés en seconde classe.'),
        chunk('h', "L'hôtel est réservé par l'assistante."),
      ];
      await store.createCollection({ name: 'voyages_fr', dimension: 2, textLanguage: 'french' });
      await store.upsert('voyages_fr', texts);
      await store.createCollection({ name: 'voyages_simple', dimension: 2 });
      await store.upsert('voyages_simple', texts);
      // "voyage" and "remboursé" are stems of "voyages" and "remboursés" in French, not in simple.
      const question = { query: 'Quel voyage est remboursé ?', topK: 10 };
      expect(ids(await store.textSearch('voyages_fr', question))).toEqual(['v']);
      expect(await store.textSearch('voyages_simple', question)).toEqual([]);
      expect(ids(await store.textSearch('voyages_fr', { query: '"voyage en train"', topK: 10 }))).toEqual([
        'v',
      ]);
      expect(ids(await store.textSearch('voyages_fr', { query: 'réservée -voyages', topK: 10 }))).toEqual([
        'h',
      ]);
      await expect(
        store.createCollection({ name: 'klingon', dimension: 2, textLanguage: 'klingon' as never }),
      ).rejects.toMatchObject({ status: 422, code: 'invalid_text_language' });
    });

    it('reads lexemes holding quotes and backslashes as they are', async () => {
      const store = subject.store();
      await store.createCollection({ name: 'odd', dimension: 2 });
      await store.upsert('odd', [chunk('q', "it's C:\\temp\\x and o'brien"), chunk('r', 'nothing here')]);
      expect(ids(await store.textSearch('odd', { query: "o'brien C:\\temp\\x", topK: 10 }))).toEqual(['q']);
    });
  });
}

describeKeywords('PGlite', pgliteSubject);

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => describeKeywords('PostgreSQL', () => postgresSubject('kb_keywords')),
);
