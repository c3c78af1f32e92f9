import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeTitle, optionText, problemText } from '../src/features/flow-editor/node-text';
import { bundle } from './locale-bundles';

beforeAll(async () => {
  await i18next.init({
    lng: 'fr',
    fallbackLng: 'en',
    resources: { en: { translation: bundle('en') }, fr: { translation: bundle('fr') } },
    interpolation: { escapeValue: false },
  });
});

describe('a node’s name on screen', () => {
  it('translates catalog keys, and the English names of flows saved before names were keys', () => {
    expect(nodeTitle(i18next, 'llm', 'nodeCatalog.nodes.llm.label')).toBe('Modèle de langage (LLM)');
    expect(nodeTitle(i18next, 'llm', 'nodeCatalog.templateNodes.promptEnhancer')).toBe(
      'Améliorateur de prompt',
    );
    expect(nodeTitle(i18next, 'llm', 'LLM model')).toBe('Modèle de langage (LLM)');
  });

  it('shows what a person typed as typed, and nothing for an empty name', () => {
    expect(nodeTitle(i18next, 'llm', 'Writer')).toBe('Writer');
    // The English name of another type is a name someone chose for this node.
    expect(nodeTitle(i18next, 'agent', 'LLM model')).toBe('LLM model');
    expect(nodeTitle(i18next, 'llm', '  ')).toBe('');
  });

  it('names options and missing fields in the reader’s language', () => {
    const t = i18next.t.bind(i18next) as (key: string, values?: Record<string, unknown>) => string;
    expect(optionText(t, { value: 'hd', label: 'nodeCatalog.options.quality.hd' })).toBe('Haute définition');
    expect(optionText(t, { value: '1024x1024' })).toBe('1024x1024');
    const missing = { field: 'modelId', code: 'missing_field', message: 'modelId is required.' };
    expect(problemText(t, missing, 'llm')).toBe(i18next.t('flow.field.required', { label: 'Modèle' }));
    const other = { field: 'prompt', code: 'unknown_output', message: '{{#x.y#}}: x has no output "y".' };
    expect(problemText(t, other, 'llm')).toBe(other.message);
  });
});
