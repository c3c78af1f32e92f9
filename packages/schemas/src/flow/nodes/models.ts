import { z } from 'zod';
import { anyValue, defineNode, type FieldMeta, num, text } from '../fields';

const promptMeta: FieldMeta[] = [
  { name: 'modelId', label: 'nodeCatalog.fields.modelId', kind: 'model', modelType: 'llm', required: true },
  {
    name: 'fallbackModelId',
    label: 'nodeCatalog.fields.fallbackModelId',
    kind: 'model',
    modelType: 'llm',
    required: false,
  },
  { name: 'systemPrompt', label: 'nodeCatalog.fields.systemPrompt', kind: 'textarea', required: false },
  { name: 'prompt', label: 'nodeCatalog.fields.prompt', kind: 'textarea', required: true },
  {
    name: 'temperature',
    label: 'nodeCatalog.fields.temperature',
    kind: 'number',
    required: false,
    min: 0,
    max: 2,
  },
  {
    name: 'pastMessageHistory',
    label: 'nodeCatalog.fields.pastMessageHistory',
    kind: 'text',
    required: false,
    help: 'nodeCatalog.help.pastMessageHistory',
  },
];

const promptFields = {
  modelId: text(),
  fallbackModelId: text(),
  systemPrompt: text(),
  prompt: text(),
  temperature: num(0.7, 0, 2),
  pastMessageHistory: anyValue(),
};

export const llmNode = defineNode({
  type: 'llm',
  label: 'nodeCatalog.nodes.llm.label',
  category: 'models',
  description: 'nodeCatalog.nodes.llm.description',
  fields: z.object(promptFields).prefault({}),
  fieldMeta: promptMeta,
  outputs: ['response', 'usage'],
});

export const multimodalLlmNode = defineNode({
  type: 'multimodal_llm',
  label: 'nodeCatalog.nodes.multimodal_llm.label',
  category: 'models',
  description: 'nodeCatalog.nodes.multimodal_llm.description',
  fields: z.object({ ...promptFields, images: anyValue() }).prefault({}),
  fieldMeta: [
    ...promptMeta.map((m) => (m.kind === 'model' ? { ...m, modelType: 'llm-multimodal' as const } : m)),
    {
      name: 'images',
      label: 'nodeCatalog.fields.images',
      kind: 'text',
      required: true,
      help: 'nodeCatalog.help.images',
    },
  ],
  outputs: ['response', 'usage'],
});

export const agentNode = defineNode({
  type: 'agent',
  label: 'nodeCatalog.nodes.agent.label',
  category: 'models',
  description: 'nodeCatalog.nodes.agent.description',
  fields: z
    .object({
      modelId: text(),
      systemPrompt: text(),
      agentPrompt: text(),
      pastMessageHistory: anyValue(),
      /** Ids of the tool nodes the agent may call (tool nodes connected to it count as well). */
      tools: z.array(z.string()).default(() => []),
      temperature: num(0.7, 0, 2),
      max_iterations: num(10, 1, 50),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'modelId', label: 'nodeCatalog.fields.modelId', kind: 'model', modelType: 'llm', required: true },
    { name: 'systemPrompt', label: 'nodeCatalog.fields.systemPrompt', kind: 'textarea', required: false },
    { name: 'agentPrompt', label: 'nodeCatalog.fields.agentPrompt', kind: 'textarea', required: true },
    {
      name: 'pastMessageHistory',
      label: 'nodeCatalog.fields.pastMessageHistory',
      kind: 'text',
      required: false,
    },
    { name: 'tools', label: 'nodeCatalog.fields.tools', kind: 'tools', required: false },
    {
      name: 'temperature',
      label: 'nodeCatalog.fields.temperature',
      kind: 'number',
      required: false,
      min: 0,
      max: 2,
    },
    {
      name: 'max_iterations',
      label: 'nodeCatalog.fields.maxIterations',
      kind: 'number',
      required: false,
      min: 1,
      max: 50,
      help: 'nodeCatalog.help.maxIterations',
    },
  ],
  outputs: ['response', 'steps'],
});
