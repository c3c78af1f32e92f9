import {
  createModelBody,
  createProviderBody as createProviderSchema,
  modelTypes,
  providerKinds,
  updateModelBody,
  updateProviderBody as updateProviderSchema,
  type Provider,
  type ProviderKindInfo,
} from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import {
  displayNameOf,
  filterModels,
  importedNames,
  suggestType,
  validateImport,
  type RemoteModel,
} from '../src/features/providers/import-logic';
import { kindHintKey, kindKey, modelTypeKey } from '../src/features/providers/model-type-label';
import { MODEL_TYPES } from '../src/lib/model-types';
import {
  formatCredits,
  parsePrice,
  parsePriceForm,
  PRICE_FIELDS,
  priceFormOf,
  priceParts,
  priceSummary,
} from '../src/features/providers/pricing';
import {
  createProviderBody,
  initialProviderForm,
  updateProviderBody,
  validateProviderForm,
} from '../src/features/providers/provider-form';
import en from '../src/i18n/locales/en.json';
import fr from '../src/i18n/locales/fr.json';

const lookup = (catalogue: unknown, key: string) =>
  key.split('.').reduce<unknown>((acc, k) => (acc as Record<string, unknown> | undefined)?.[k], catalogue);

const remote: RemoteModel[] = [
  { name: 'gpt-4o-mini', suggested_type: 'llm' },
  { name: 'gpt-4o', suggested_type: 'llm' },
  { name: 'text-embedding-3-small', suggested_type: 'text-embeddings' },
  { name: 'mystery', suggested_type: null },
];

describe('import models: validation and type suggestion', () => {
  it('suggests the type all chosen models agree on', () => {
    expect(suggestType(remote, ['gpt-4o-mini', 'gpt-4o'])).toBe('llm');
    expect(suggestType(remote, new Set(['text-embedding-3-small']))).toBe('text-embeddings');
  });
  it('suggests nothing on disagreement, unknown types, or an empty choice', () => {
    expect(suggestType(remote, ['gpt-4o', 'text-embedding-3-small'])).toBeNull();
    expect(suggestType(remote, ['gpt-4o', 'mystery'])).toBeNull();
    expect(suggestType(remote, ['mystery'])).toBeNull();
    expect(suggestType(remote, [])).toBeNull();
  });
  it('requires a type, with the spec wording, even before a model is chosen', () => {
    expect(validateImport(0, '')).toEqual({
      models: 'providers.import.noModels',
      type: 'providers.import.typeRequired',
    });
    expect(validateImport(2, '')).toEqual({ type: 'providers.import.typeRequired' });
    expect(validateImport(0, 'llm')).toEqual({ models: 'providers.import.noModels' });
    expect(validateImport(1, 'llm')).toEqual({});
    expect(lookup(en, 'providers.import.typeRequired')).toBe('Please select a model type');
    expect(lookup(fr, 'providers.import.typeRequired')).toBe('Veuillez sélectionner un type de modèle');
  });
  it('searches by any part of the name, ignoring case and spaces', () => {
    expect(filterModels(remote, ' GPT-4O ').map((m) => m.name)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    expect(filterModels(remote, '')).toHaveLength(4);
    expect(filterModels(remote, 'nothing')).toEqual([]);
  });
  it('knows which models the provider already has in the workspace', () => {
    const models = [
      { provider_id: 'p1', model_name: 'gpt-4o' },
      { provider_id: 'p2', model_name: 'gpt-4o-mini' },
    ];
    expect([...importedNames(models, 'p1')]).toEqual(['gpt-4o']);
    expect(importedNames(models, null).size).toBe(0);
    expect(displayNameOf('x'.repeat(300))).toHaveLength(120);
  });
  it('sends bodies the API contract accepts', () => {
    const body = {
      workspace_id: crypto.randomUUID(),
      provider_id: crypto.randomUUID(),
      name: displayNameOf('gpt-4o'),
      model_name: 'gpt-4o',
      model_type: 'llm' as const,
    };
    expect(createModelBody.safeParse(body).success).toBe(true);
    const { pricing } = parsePriceForm({ ...priceFormOf(), input_per_1k: '0.5' });
    const update = { name: 'GPT', model_name: 'gpt-4o', model_type: 'llm', description: 'Fast', pricing };
    expect(updateModelBody.safeParse(update).success).toBe(true);
  });
});

describe('pricing', () => {
  it('reads typed prices: empty is 0, negatives and junk are refused', () => {
    expect(parsePrice('')).toBe(0);
    expect(parsePrice(' 0.25 ')).toBe(0.25);
    expect(parsePrice('0,5')).toBe(0.5);
    expect(parsePrice('-1')).toBeNull();
    expect(parsePrice('abc')).toBeNull();
    expect(parsePrice('2000000')).toBeNull();
  });
  it('turns the form into pricing and names the invalid fields', () => {
    const result = parsePriceForm({ ...priceFormOf(), input_per_1k: '1', per_call: '-2' });
    expect(result.invalid).toEqual(['per_call']);
    expect(result.pricing).toEqual({
      input_per_1k: 1,
      output_per_1k: 0,
      per_call: 0,
      per_image: 0,
      per_second: 0,
    });
    expect(priceFormOf({ input_per_1k: 0.15, output_per_1k: 0 })).toMatchObject({
      input_per_1k: '0.15',
      output_per_1k: '0',
    });
  });
  it('summarises only what is charged, in the reader language', () => {
    expect(priceParts({ input_per_1k: 0.15, output_per_1k: 0.6, per_call: 0 })).toEqual([
      { field: 'input_per_1k', value: 0.15 },
      { field: 'output_per_1k', value: 0.6 },
    ]);
    const label = (field: string, value: string) =>
      String(lookup(en, `providers.pricing.short.${field}`)).replace('{{value}}', value);
    expect(priceSummary({ input_per_1k: 0.15, output_per_1k: 0.6 }, 'en', label, 'Free')).toBe(
      'In 0.15/1k · Out 0.6/1k',
    );
    expect(priceSummary({ per_image: 2 }, 'en', label, 'Free')).toBe('2/image');
    expect(priceSummary(undefined, 'en', label, 'Free')).toBe('Free');
    expect(formatCredits(0.125, 'fr')).toBe('0,125');
    expect(formatCredits(1500, 'en')).toBe('1,500');
  });
});

const azure: ProviderKindInfo = {
  kind: 'azure_openai',
  label: 'Azure OpenAI',
  needs_api_key: true,
  needs_base_url: true,
  default_base_url: null,
  settings: [{ name: 'api_version', label: 'API version', required: true, default: '2024-10-21' }],
  model_types: ['llm'],
};
const openai: ProviderKindInfo = {
  kind: 'openai',
  label: 'OpenAI',
  needs_api_key: true,
  needs_base_url: false,
  default_base_url: 'https://api.openai.com/v1',
  settings: [],
  model_types: ['llm', 'text-embeddings'],
};

describe('provider form', () => {
  it('starts from the kind defaults, and from the stored provider (never its key)', () => {
    expect(initialProviderForm(azure, null)).toEqual({
      name: '',
      baseUrl: '',
      apiKey: '',
      settings: { api_version: '2024-10-21' },
    });
    const stored: Provider = {
      id: 'p1',
      workspace_id: 'w1',
      name: 'Prod',
      kind: 'openai',
      base_url: null,
      settings: {},
      api_key_hint: 'sk-…a1b2',
      created_at: '2026-01-01T00:00:00.000Z',
    };
    expect(initialProviderForm(openai, stored)).toEqual({
      name: 'Prod',
      baseUrl: '',
      apiKey: '',
      settings: {},
    });
  });
  it('requires a name, the base URL and key the kind needs, and required settings', () => {
    const empty = { name: ' ', baseUrl: '', apiKey: '', settings: { api_version: '' } };
    expect(validateProviderForm(azure, empty, false)).toEqual({
      name: 'common.required',
      baseUrl: 'common.required',
      apiKey: 'common.required',
      'setting.api_version': 'common.required',
    });
    // Editing: an empty key keeps the stored one.
    expect(validateProviderForm(openai, { ...empty, name: 'Prod' }, true)).toEqual({});
    expect(
      validateProviderForm(openai, { ...empty, name: 'P', baseUrl: 'ftp://x', apiKey: 'k' }, false),
    ).toEqual({
      baseUrl: 'providers.form.invalidUrl',
    });
  });
  it('builds create and update bodies the API contract accepts', () => {
    const form = {
      name: ' Fake AI ',
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: ' test-key ',
      settings: { api_version: '2024-10-21' },
    };
    const created = createProviderBody(crypto.randomUUID(), azure, form);
    expect(created).toMatchObject({ name: 'Fake AI', api_key: 'test-key', kind: 'azure_openai' });
    expect(createProviderSchema.safeParse(created).success).toBe(true);
    const minimal = createProviderBody(crypto.randomUUID(), openai, { ...form, baseUrl: '', apiKey: '' });
    expect(minimal).not.toHaveProperty('base_url');
    expect(minimal).not.toHaveProperty('api_key');
    expect(minimal).not.toHaveProperty('settings');
    expect(createProviderSchema.safeParse(minimal).success).toBe(true);

    const kept = updateProviderBody(openai, { ...form, baseUrl: '', apiKey: '' });
    expect(kept).toEqual({ name: 'Fake AI', base_url: null, settings: {} });
    expect(updateProviderSchema.safeParse(kept).success).toBe(true);
    expect(updateProviderBody(azure, form).api_key).toBe('test-key');
  });
});

describe('labels', () => {
  it('the model types match the contract', () => {
    expect([...MODEL_TYPES]).toEqual([...modelTypes]);
  });
  it('every key built at run time exists in English and French', () => {
    const keys = [
      ...modelTypes.map(modelTypeKey),
      ...providerKinds.flatMap((k) => [kindKey(k), kindHintKey(k)]),
      ...PRICE_FIELDS.flatMap((f) => [`providers.pricing.short.${f}`, `providers.pricing.fields.${f}`]),
      'providers.settings.api_version',
    ];
    for (const key of keys) {
      expect(typeof lookup(en, key), `en ${key}`).toBe('string');
      expect(typeof lookup(fr, key), `fr ${key}`).toBe('string');
    }
  });
});
