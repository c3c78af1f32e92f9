import { FLOW_TEMPLATES, isCatalogKey, NODE_CATALOG, nodeTypes } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { bundle, flatten } from './locale-bundles';

const en = flatten(bundle('en'));
const fr = flatten(bundle('fr'));

/** Every translation key the node catalog and the templates carry. */
function catalogKeys(): string[] {
  const keys: string[] = [];
  for (const type of nodeTypes) {
    const def = NODE_CATALOG[type];
    keys.push(def.label, def.description);
    for (const meta of def.fieldMeta) {
      keys.push(meta.label);
      if (meta.help) keys.push(meta.help);
      for (const option of meta.options ?? []) if (option.label) keys.push(option.label);
    }
  }
  for (const template of FLOW_TEMPLATES) {
    keys.push(template.name, template.description);
    for (const node of template.configuration.nodes) keys.push(node.data.label);
  }
  return [...new Set(keys)];
}

// Words spelled the same in both languages, which may stay as they are.
const SAME_IN_BOTH = new Set([
  'DALL·E 2',
  'DALL·E 3',
  'Collection',
  'Expression',
  'Description',
  'Instruction',
  'Prompt',
  'Standard',
  'Document(s)',
  'Branches',
]);

describe('the node catalog and the templates in both languages', () => {
  it('every English key has a French text (and no French key is left over)', () => {
    expect(Object.keys(en).filter((k) => !(k in fr))).toEqual([]);
    expect(Object.keys(fr).filter((k) => !(k in en))).toEqual([]);
  });

  it('carry translation keys, each present in English and in French', () => {
    const keys = catalogKeys();
    expect(keys.length).toBeGreaterThan(200);
    expect(keys.filter((k) => !isCatalogKey(k) && !k.startsWith('flowTemplates.'))).toEqual([]);
    expect(keys.filter((k) => !en[k])).toEqual([]);
    expect(keys.filter((k) => !fr[k])).toEqual([]);
  });

  it('are French in French: no catalog text is left in English', () => {
    const same = catalogKeys().filter((k) => fr[k] === en[k] && !SAME_IN_BOTH.has(en[k]!));
    expect(same).toEqual([]);
  });

  it('keep the English names of the spec', () => {
    expect(en['nodeCatalog.nodes.llm.label']).toBe('LLM model');
    expect(en['nodeCatalog.fields.systemPrompt']).toBe('System prompt');
    expect(en['flowTemplates.simple-chatbot.name']).toBe('Quick Start Assistant');
    expect(en['flowTemplates.qa-chatbot.name']).toBe('Smart Q&A Assistant');
    expect(en['flowTemplates.knowledge-base-updater.name']).toBe('Knowledge Base Updater');
  });

  it('French names flow templates and AI models with different words', () => {
    expect(fr['flow.toolbar.templates']).not.toBe(fr['providers.models.title']);
    expect(fr['flow.categories.models']).toBe(fr['providers.models.title']);
  });

  it('has the error texts of the spec word for word', () => {
    expect(en['chatPage.errors.processImage']).toBe('Failed to process image');
    expect(en['chatPage.errors.noBody']).toBe('No response');
    expect(en['auth.onboarding.invalid.missing']).toBe('Invalid or missing onboarding token.');
    expect(en['apiErrors.refresh_failed']).toBe('Token refresh failed. Please log in again.');
    expect(en['apiErrors.no_refresh_token']).toBe('No refresh token available. Please log in.');
  });
});
