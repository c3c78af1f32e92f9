import type { Chatbot } from '@atelier/schemas';
import { simpleConfigBody as simpleConfigSchema } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { bulkTargets, runBulk } from '../src/features/studio/bulk';
import {
  ALL_TYPES,
  chatbotPath,
  filterChatbots,
  integrationSnippets,
  isDirty,
  simpleConfigBody,
  simpleFormOf,
  validateName,
  validateSimple,
} from '../src/features/studio/logic';
import en from '../src/i18n/locales/en.studio.json';
import fr from '../src/i18n/locales/fr.studio.json';

const M1 = '11111111-1111-4111-8111-111111111111';
const M2 = '22222222-2222-4222-8222-222222222222';
const C1 = '33333333-3333-4333-8333-333333333333';

const bot = (over: Partial<Chatbot>): Chatbot => ({
  id: '44444444-4444-4444-8444-444444444444',
  workspace_id: 'w1',
  name: 'Bot',
  description: '',
  type: 'simple',
  is_published: false,
  instruction: '',
  model_id: null,
  fallback_model_id: null,
  knowledge_collection_ids: [],
  store_conversations: true,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  ...over,
});

const list = [
  bot({
    id: 'a',
    name: 'Support desk',
    description: 'Answers customers',
    updated_at: '2025-01-02T00:00:00Z',
  }),
  bot({ id: 'b', name: 'Invoice reader', type: 'workflow', updated_at: '2025-03-01T00:00:00Z' }),
  bot({ id: 'c', name: 'Onboarding', description: 'Guides new SUPPORT staff', type: 'chatflow' }),
];

describe('studio list: search and type filter', () => {
  it('searches name and description, ignoring case and extra spaces, newest first', () => {
    expect(filterChatbots(list, '  support ', ALL_TYPES).map((c) => c.id)).toEqual(['a', 'c']);
    expect(filterChatbots(list, 'answers customers', ALL_TYPES).map((c) => c.id)).toEqual(['a']);
    expect(filterChatbots(list, '', ALL_TYPES).map((c) => c.id)).toEqual(['b', 'a', 'c']);
    expect(filterChatbots(list, 'nothing', ALL_TYPES)).toEqual([]);
  });
  it('keeps one type when asked', () => {
    expect(filterChatbots(list, '', 'workflow').map((c) => c.id)).toEqual(['b']);
    expect(filterChatbots(list, 'support', 'chatflow').map((c) => c.id)).toEqual(['c']);
    expect(filterChatbots(list, 'invoice', 'simple')).toEqual([]);
  });
  it('does not reorder the list it is given', () => {
    const copy = [...list];
    filterChatbots(list, '', ALL_TYPES);
    expect(list).toEqual(copy);
  });
});

describe('routes by chatbot type', () => {
  it('opens each type in its editor', () => {
    expect(chatbotPath('simple', 'abc')).toBe('/studio/simple/abc');
    expect(chatbotPath('chatflow', 'abc')).toBe('/studio/chatflow/abc');
    expect(chatbotPath('workflow', 'abc')).toBe('/studio/workflow/abc');
  });
});

describe('bulk grant and revoke', () => {
  const users = ['u1', 'u2', 'u3', 'u4'];
  it('counts successes and failures; one failure does not stop the others', async () => {
    const called: string[] = [];
    const fake = async (id: string) => {
      called.push(id);
      if (id === 'u2' || id === 'u4') throw new Error('nope');
      return { message: 'ok' };
    };
    const result = await runBulk(users, fake);
    expect(result).toEqual({ succeeded: ['u1', 'u3'], failed: ['u2', 'u4'] });
    expect(called.sort()).toEqual(users);
  });
  it('runs the calls in parallel', async () => {
    let running = 0;
    let peak = 0;
    await runBulk(users, async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    });
    expect(peak).toBe(4);
  });
  it('an empty list does nothing', async () => {
    expect(await runBulk([], () => Promise.reject(new Error('never')))).toEqual({
      succeeded: [],
      failed: [],
    });
  });
  it('grants only to users without access, revokes only from users with it', () => {
    const has = new Set(['u2', 'u3']);
    expect(bulkTargets(users, has, 'grant')).toEqual(['u1', 'u4']);
    expect(bulkTargets(users, has, 'revoke')).toEqual(['u2', 'u3']);
  });
});

describe('forms: validation and the saved body', () => {
  it('requires a name, with the spec wording', () => {
    expect(validateName('  ')).toEqual({ name: 'common.required' });
    expect(validateName('Bot')).toEqual({});
  });
  it('requires a model among the workspace models, and a fallback that differs', () => {
    const form = simpleFormOf(bot({ model_id: M1 }));
    expect(validateSimple(form, [M1, M2])).toEqual({});
    expect(validateSimple(form, [M2])).toEqual({ model: 'common.required' });
    expect(validateSimple(form, null)).toEqual({}); // models still loading
    expect(validateSimple({ ...form, modelId: '' }, null)).toEqual({ model: 'common.required' });
    expect(validateSimple({ ...form, name: '' }, [M1])).toEqual({ name: 'common.required' });
    expect(validateSimple({ ...form, fallbackModelId: M1 }, [M1])).toEqual({
      fallback: 'studio.simple.fallbackSame',
    });
  });
  it('builds a body the API schema accepts, keeping saved knowledge collections', () => {
    const form = simpleFormOf(
      bot({ name: ' Bot ', model_id: M1, fallback_model_id: M2, knowledge_collection_ids: [C1] }),
    );
    const body = simpleConfigBody({ ...form, instruction: 'Be kind.', storeConversations: false });
    expect(body).toEqual({
      name: 'Bot',
      description: '',
      instruction: 'Be kind.',
      model_id: M1,
      fallback_model_id: M2,
      knowledge_collection_ids: [C1],
      store_conversations: false,
    });
    expect(simpleConfigSchema.safeParse(body).success).toBe(true);
    expect(simpleConfigBody({ ...form, fallbackModelId: M1 }).fallback_model_id).toBeNull();
  });
  it('tracks unsaved changes', () => {
    const saved = simpleFormOf(bot({ model_id: M1, knowledge_collection_ids: [C1, M2] }));
    expect(isDirty({ ...saved }, saved)).toBe(false);
    expect(isDirty({ ...saved, collectionIds: [M2, C1] }, saved)).toBe(false);
    expect(isDirty({ ...saved, instruction: 'x' }, saved)).toBe(true);
    expect(isDirty({ ...saved, storeConversations: false }, saved)).toBe(true);
    expect(isDirty({ ...saved, fallbackModelId: M2 }, saved)).toBe(true);
  });
});

describe('integration guide', () => {
  it('uses the real API address and the chatbot id', () => {
    const s = integrationSnippets('https://api.example.com/', 'bot-1');
    expect(s.conversation).toContain('https://api.example.com/chat-interface/conversations ');
    expect(s.conversation).toContain('"chatbot_id": "bot-1"');
    expect(s.message).toContain(
      'https://api.example.com/chat-interface/conversations/$CONVERSATION_ID/simple/message',
    );
    expect(s.message).toContain('Bearer $TOKEN');
    expect(s.token).toContain('https://api.example.com/token');
  });
});

describe('studio translations', () => {
  it('has the spec texts in English, and French for each', () => {
    expect(en.studio.simple.notFound).toBe('The chatbot has not been found.');
    expect(en.studio.simple.noCollections).toBe('No knowledge collections yet');
    expect(fr.studio.simple.notFound).not.toBe(en.studio.simple.notFound);
  });
});
