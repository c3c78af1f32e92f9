/**
 * Engine overhead per node: a chain of 1,000 cheap nodes (input, 998 text nodes each passing on the text
 * of the one before, output) run N times: microseconds per node, with and without validation.
 */
import type { FlowConfig, FlowNode } from '@atelier/schemas';
import { edgeId } from '@atelier/schemas';
import { type EngineServices, runFlow } from '@atelier/engine';

const NODES = 1000;
const RUNS = 30;

function chain(): FlowConfig {
  const nodes: FlowNode[] = [
    { id: 'input_0000', type: 'input', position: { x: 0, y: 0 }, data: { label: 'Input', fields: [] } },
  ];
  for (let i = 1; i < NODES - 1; i++) {
    const previous = nodes[i - 1]!;
    const output = previous.type === 'input' ? 'query' : 'content';
    nodes.push({
      id: `text_tool_${String(i).padStart(4, '0')}`,
      type: 'text_tool',
      position: { x: i * 10, y: 0 },
      data: {
        label: `Step ${i}`,
        fields: { name: `step_${i}`, description: 'x', content: `{{#${previous.id}.${output}#}}` },
      },
    });
  }
  nodes.push({
    id: 'output_9999',
    type: 'output',
    position: { x: NODES * 10, y: 0 },
    data: { label: 'Output', fields: { response: `{{#${nodes[nodes.length - 1]!.id}.content#}}` } },
  });
  const edges = nodes
    .slice(1)
    .map((n, i) => ({ id: edgeId(nodes[i]!.id, n.id), source: nodes[i]!.id, target: n.id }));
  return { nodes, edges };
}

const unused = () => Promise.reject(new Error('not used'));
const services: EngineServices = {
  chat: unused,
  image: unused,
  speech: unused,
  transcribe: unused,
  ocr: unused,
  video: unused,
  rerank: unused,
  http: unused,
};

async function measure(config: FlowConfig, validate: boolean): Promise<number[]> {
  const perNode: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let events = 0;
    const t0 = performance.now();
    const result = await runFlow({
      config,
      inputs: { query: 'hello' },
      services,
      validate,
      onEvent: () => events++,
    });
    const ms = performance.now() - t0;
    if (result.status !== 'succeeded' || result.text !== 'hello' || events !== NODES * 2 + 1) {
      throw new Error(`Unexpected run: ${result.status} ${result.error ?? ''} (${events} events)`);
    }
    perNode.push((ms * 1000) / NODES);
  }
  return perNode;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median microseconds per node over RUNS runs, with and without validation. */
export async function engineOverhead(): Promise<{ validated: number; unvalidated: number }> {
  const config = chain();
  await measure(config, true); // warm-up
  const validated = median(await measure(config, true));
  const unvalidated = median(await measure(config, false));
  return { validated, unvalidated };
}
