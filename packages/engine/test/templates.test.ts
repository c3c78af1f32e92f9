import { FLOW_TEMPLATES, NODE_CATALOG, templateById } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { runFlow, validateFlow } from '../src';
import { chatStub, reply, stubServices } from './helpers';

describe('templates', () => {
  it('are the ten of the spec: 8 chatflows then 2 workflows', () => {
    expect(FLOW_TEMPLATES.map((t) => [t.id, t.type])).toEqual([
      ['simple-chatbot', 'chatflow'],
      ['qa-chatbot', 'chatflow'],
      ['image-generation', 'chatflow'],
      ['audio-content-creator', 'chatflow'],
      ['audio-transcription', 'chatflow'],
      ['figma-dev', 'chatflow'],
      ['notion-chatbot', 'chatflow'],
      ['agent', 'chatflow'],
      ['document-indexing', 'workflow'],
      ['knowledge-base-updater', 'workflow'],
    ]);
    // Names and descriptions are translation keys; their texts live in the web app's locale files.
    for (const t of FLOW_TEMPLATES) {
      expect([t.name, t.description]).toEqual([
        `flowTemplates.${t.id}.name`,
        `flowTemplates.${t.id}.description`,
      ]);
    }
  });

  it.each(FLOW_TEMPLATES.map((t) => [t.id, t] as const))('%s validates as a draft', (_id, template) => {
    expect(validateFlow(template.configuration, { draft: true })).toEqual([]);
  });

  it('need only the choices a user must make: models, collections and credentials', () => {
    const missing = Object.fromEntries(
      FLOW_TEMPLATES.map((t) => [
        t.id,
        validateFlow(t.configuration).map((p) => {
          expect(p.code).toBe('missing_field');
          return `${p.nodeId}.${p.field}`;
        }),
      ]),
    );
    expect(missing).toEqual({
      'simple-chatbot': ['llm_qs01.modelId'],
      'qa-chatbot': ['knowledge_retrieve_qa01.collection_id', 'llm_qa01.modelId'],
      'image-generation': ['llm_ig01.modelId', 'dalle3_ig01.modelId'],
      'audio-content-creator': ['llm_ac01.modelId', 'text_to_speech_ac01.modelId'],
      'audio-transcription': ['speech_to_text_at01.modelId', 'llm_at01.modelId'],
      'figma-dev': ['llm_fd01.modelId'],
      'notion-chatbot': [
        'notion_loader_nc01.integration_token',
        'notion_loader_nc01.database_id',
        'llm_nc01.modelId',
      ],
      agent: ['agent_ag01.modelId', 'vector_store_tool_ag01.collection_id'],
      'document-indexing': ['vector_store_insert_di01.collection_id'],
      'knowledge-base-updater': [
        'vector_store_delete_ku01.collection_id',
        'vector_store_insert_ku01.collection_id',
      ],
    });
    for (const t of FLOW_TEMPLATES) {
      for (const p of validateFlow(t.configuration)) {
        const node = t.configuration.nodes.find((n) => n.id === p.nodeId)!;
        const meta = NODE_CATALOG[node.type as keyof typeof NODE_CATALOG].fieldMeta.find(
          (m) => m.name === p.field,
        )!;
        expect(['model', 'collection', 'secret', 'text']).toContain(meta.kind);
      }
    }
  });

  it('use the spec defaults', () => {
    const field = (id: string, nodeId: string, name: string) => {
      const node = templateById(id)!.configuration.nodes.find((n) => n.id === nodeId)!;
      return (node.data.fields as Record<string, unknown>)[name];
    };
    expect(field('simple-chatbot', 'llm_qs01', 'temperature')).toBe(0.7);
    expect(field('qa-chatbot', 'knowledge_retrieve_qa01', 'number_documents')).toBe(10);
    expect(field('agent', 'vector_store_tool_ag01', 'number_documents')).toBe(5);
    expect(field('document-indexing', 'recursive_splitter_di01', 'chunk_size')).toBe(1000);
    expect(field('document-indexing', 'recursive_splitter_di01', 'chunk_overlap')).toBe(100);
    expect(field('notion-chatbot', 'notion_loader_nc01', 'request_timeout_sec')).toBe(10);
    expect(field('audio-content-creator', 'text_to_speech_ac01', 'voice')).toBe('alloy');
    expect(field('audio-content-creator', 'text_to_speech_ac01', 'response_format')).toBe('mp3');
    expect(field('audio-content-creator', 'text_to_speech_ac01', 'speed')).toBe(1);
    expect(field('image-generation', 'dalle3_ig01', 'quality')).toBe('standard');
    expect(field('image-generation', 'dalle3_ig01', 'size')).toBe('1024x1024');
    expect(field('image-generation', 'dalle3_ig01', 'style')).toBe('vivid');
    expect(field('audio-transcription', 'speech_to_text_at01', 'temperature')).toBe(0);
  });

  it('templateById gives a copy, safe to edit, and nothing for an unknown id', () => {
    const copy = templateById('simple-chatbot')!;
    copy.configuration.nodes.length = 0;
    expect(templateById('simple-chatbot')!.configuration.nodes).toHaveLength(3);
    expect(templateById('nope')).toBeUndefined();
  });

  it('run once their models are chosen (the quick start assistant, with a conversation)', async () => {
    const template = templateById('simple-chatbot')!;
    const llm = template.configuration.nodes.find((n) => n.type === 'llm')!;
    (llm.data.fields as Record<string, unknown>).modelId = 'model-1';
    expect(validateFlow(template.configuration)).toEqual([]);
    const { chat, requests } = chatStub(() => reply('Sure!'));
    const result = await runFlow({
      config: template.configuration,
      inputs: {
        query: 'Help me',
        history: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
      services: stubServices({ chat }),
    });
    expect(result.text).toBe('Sure!');
    expect(requests[0]!.messages).toHaveLength(3);
    expect(requests[0]!.temperature).toBe(0.7);
  });
});
