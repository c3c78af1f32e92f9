import type { Chatbot } from '@atelier/schemas';
import { simpleConfigBody as simpleConfigSchema } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { bulkTargets, runBulk } from '../src/features/studio/bulk';
import { integrationGuide, SNIPPET_LANGUAGES } from '../src/features/studio/integration-snippets';
import {
  ALL_TYPES,
  chatbotPath,
  filterChatbots,
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
  has_unpublished_changes: false,
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
  const base = 'https://api.example.com';
  const ID = '44444444-4444-4444-8444-444444444444';
  /** The JSON body of a curl snippet's -d argument. */
  const curlBody = (curl: string) => JSON.parse(curl.match(/-d '(.*?)'$/ms)![1]!.replace(/'\\''/g, "'"));

  it('a simple chatbot: the OpenAI call with the real address and id in curl, JavaScript and Python', () => {
    const guide = integrationGuide(`${base}/`, { id: ID, type: 'simple' });
    expect(guide.openai.curl).toContain(`curl -N ${base}/v1/chat/completions`);
    expect(guide.openai.curl).toContain('Authorization: Bearer $ATELIER_API_KEY');
    expect(curlBody(guide.openai.curl)).toEqual({
      model: ID,
      messages: [{ role: 'user', content: 'Hello!' }],
      stream: true,
      user: 'customer-42',
    });
    expect(guide.openai.javascript).toContain("import OpenAI from 'openai';");
    expect(guide.openai.javascript).toContain(`baseURL: '${base}/v1'`);
    expect(guide.openai.javascript).toContain(`model: '${ID}'`);
    expect(guide.openai.javascript).toContain("content: 'Hello!'");
    expect(guide.openai.python).toContain('from openai import OpenAI');
    expect(guide.openai.python).toContain(`base_url="${base}/v1"`);
    expect(guide.openai.python).toContain(`model="${ID}"`);
    expect(curlBody(guide.native.curl)).toEqual({ user: 'customer-42', message: 'Hello!', stream: false });
    expect(guide.native.python).toContain('"stream": False');
    for (const language of SNIPPET_LANGUAGES) {
      expect(guide.native[language]).toContain(`${base}/v1/chat-messages`);
      expect(guide.openai[language]).not.toContain('api.example.com//');
    }
  });

  it('flows are never shown the simple chat call; a workflow sends its input fields', () => {
    for (const type of ['chatflow', 'workflow'] as const) {
      const guide = integrationGuide(base, { id: ID, type }, ['topic']);
      const all = JSON.stringify(guide);
      expect(all).not.toContain('/chat-interface/');
      expect(all).not.toContain('simple/message');
    }
    const chatflow = integrationGuide(base, { id: ID, type: 'chatflow' }, ['topic']);
    expect(curlBody(chatflow.openai.curl).messages).toEqual([{ role: 'user', content: 'Hello!' }]);
    expect(curlBody(chatflow.native.curl)).toMatchObject({
      message: 'Hello!',
      inputs: { topic: 'your topic' },
    });

    const workflow = integrationGuide(base, { id: ID, type: 'workflow' }, ['topic', 'query']);
    const sent = curlBody(workflow.openai.curl).messages[0].content as string;
    expect(JSON.parse(sent)).toEqual({ topic: 'your topic', query: 'Hello!' });
    expect(curlBody(workflow.native.curl)).toEqual({
      user: 'customer-42',
      inputs: { topic: 'your topic', query: 'Hello!' },
    });
    expect(workflow.native.curl).toContain(`${base}/v1/runs/$RUN_ID/events?user=customer-42`);
    expect(workflow.native.javascript).toContain(`'${base}/v1/workflows/runs'`);
    expect(workflow.openai.javascript).toContain(`content: '{"topic":"your topic","query":"Hello!"}'`);
    expect(workflow.native.python).toContain(`"${base}/v1/workflows/runs"`);
    // Without known fields a workflow is shown a query.
    const unknown = integrationGuide(base, { id: ID, type: 'workflow' });
    expect(JSON.parse(curlBody(unknown.openai.curl).messages[0].content)).toEqual({ query: 'Hello!' });
  });
});

describe('studio translations', () => {
  it('has the spec texts in English, and French for each', () => {
    expect(en.studio.simple.notFound).toBe('The chatbot has not been found.');
    expect(en.studio.simple.noCollections).toBe('No knowledge collections yet');
    expect(fr.studio.simple.notFound).not.toBe(en.studio.simple.notFound);
  });
});
