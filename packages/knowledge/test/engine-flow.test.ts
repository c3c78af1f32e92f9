import { runFlow, type EngineServices } from '@atelier/engine';
import type { FlowEdge, FlowNode } from '@atelier/schemas';
import { edgeId } from '@atelier/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCollection, startEnv, type Env } from './ingest-env';

/* The knowledge nodes on the real engine, with the capability's seam as their services. */

let env: Env;
beforeAll(async () => {
  env = await startEnv('Knowledge nodes test org');
});
afterAll(async () => {
  await env?.close();
});

const unused = () => Promise.reject(new Error('not used by these flows'));
const services = (): EngineServices => ({
  chat: unused,
  image: unused,
  speech: unused,
  transcribe: unused,
  ocr: unused,
  video: unused,
  rerank: unused,
  http: unused,
  knowledge: env.knowledge.engineServices(env.scope),
});

const node = (type: string, suffix: string, fields: unknown): FlowNode => ({
  id: `${type}_${suffix}`,
  type,
  position: { x: 0, y: 0 },
  data: { label: `${type} ${suffix}`, fields: fields as Record<string, unknown> },
});
const ref = (n: FlowNode, output: string) => `{{#${n.id}.${output}#}}`;

async function run(steps: FlowNode[], response: string, query: string) {
  // The input node's fields are its custom fields: none here.
  const input = node('input', 'in01', []);
  const chain = [input, ...steps, node('output', 'ou01', { response })];
  const edges: FlowEdge[] = chain
    .slice(1)
    .map((n, i) => ({ id: edgeId(chain[i]!.id, n.id), source: chain[i]!.id, target: n.id }));
  return runFlow({ config: { nodes: chain, edges }, inputs: { query }, services: services() });
}

describe('knowledge nodes', () => {
  it('split → vector store insert (smart) → knowledge retrieve → record delete', async () => {
    const { id } = await addCollection(env);
    const text =
      'Returns are accepted for thirty days.\n\nGift cards never expire.\n\nOrders ship from Lyon.';
    const splitter = node('recursive_splitter', 'rs01', {
      documents_to_split: '{{#input_in01.query#}}',
      chunk_size: 40,
      chunk_overlap: 0,
    });
    const insert = node('vector_store_insert', 'vi01', {
      documents: ref(splitter, 'documents'),
      mode: 'collection',
      collection_id: id,
      smart_insertion: true,
    });
    const first = await run([splitter, insert], ref(insert, 'inserted'), text);
    expect(first.status, first.error).toBe('succeeded');
    expect(first.text).toBe('3');
    expect((await run([splitter, insert], ref(insert, 'inserted'), text)).text).toBe('0');

    const retrieve = node('knowledge_retrieve', 'kr01', {
      collection_id: id,
      query: '{{#input_in01.query#}}',
      number_documents: 1,
      filter_content: '',
    });
    const found = await run([retrieve], ref(retrieve, 'context'), 'do gift cards expire');
    expect(found.status, found.error).toBe('succeeded');
    expect(found.text).toContain('Gift cards never expire.');

    const remove = node('vector_store_delete', 'vd01', {
      deletion_condition_expr: 'chunk_id != "none"',
      mode: 'collection',
      collection_id: id,
      continue_on_failure: false,
    });
    const deleted = await run([remove], ref(remove, 'deleted'), 'x');
    expect(deleted.text).toBe('3');
  });

  it('record delete with continue on failure answers zero deleted and the error', async () => {
    const { id } = await addCollection(env);
    const remove = node('vector_store_delete', 'vd02', {
      deletion_condition_expr: 'DROP TABLE users',
      mode: 'collection',
      collection_id: id,
      continue_on_failure: true,
    });
    const result = await run([remove], `${ref(remove, 'deleted')} ${ref(remove, 'error')}`, 'x');
    expect(result.status, result.error).toBe('succeeded');
    expect(result.text).toMatch(/^0 .*Invalid condition/);
    const strict = node('vector_store_delete', 'vd03', {
      deletion_condition_expr: 'DROP TABLE users',
      mode: 'collection',
      collection_id: id,
      continue_on_failure: false,
    });
    expect((await run([strict], ref(strict, 'deleted'), 'x')).status).toBe('failed');
  });
});
