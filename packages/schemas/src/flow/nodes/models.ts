import { z } from 'zod';
import { anyValue, defineNode, type FieldMeta, num, text } from '../fields';

const promptMeta: FieldMeta[] = [
  { name: 'modelId', label: 'Model', kind: 'model', modelType: 'llm', required: true },
  { name: 'fallbackModelId', label: 'Fallback model', kind: 'model', modelType: 'llm', required: false },
  { name: 'systemPrompt', label: 'System prompt', kind: 'textarea', required: false },
  { name: 'prompt', label: 'Prompt', kind: 'textarea', required: true },
  { name: 'temperature', label: 'Temperature', kind: 'number', required: false, min: 0, max: 2 },
  {
    name: 'pastMessageHistory',
    label: 'Past message history',
    kind: 'text',
    required: false,
    help: 'A reference to a ChatMessage[] value, usually the input node’s history.',
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
  label: 'LLM model',
  category: 'models',
  description:
    'Answers a prompt with a language model; the answer streams to the user while the run goes on.',
  fields: z.object(promptFields).prefault({}),
  fieldMeta: promptMeta,
  outputs: ['response', 'usage'],
});

export const multimodalLlmNode = defineNode({
  type: 'multimodal_llm',
  label: 'Multimodal LLM',
  category: 'models',
  description: 'Answers a prompt about images with a multimodal model.',
  fields: z.object({ ...promptFields, images: anyValue() }).prefault({}),
  fieldMeta: [
    ...promptMeta.map((m) => (m.kind === 'model' ? { ...m, modelType: 'llm-multimodal' as const } : m)),
    {
      name: 'images',
      label: 'Images',
      kind: 'text',
      required: true,
      help: 'A reference to an image or image[] value (files, data: URLs or http(s) URLs).',
    },
  ],
  outputs: ['response', 'usage'],
});

export const agentNode = defineNode({
  type: 'agent',
  label: 'Agent',
  category: 'models',
  description: 'Works on a task with a language model that may call the tools attached to it, step by step.',
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
    { name: 'modelId', label: 'Model', kind: 'model', modelType: 'llm', required: true },
    { name: 'systemPrompt', label: 'System prompt', kind: 'textarea', required: false },
    { name: 'agentPrompt', label: 'Task', kind: 'textarea', required: true },
    { name: 'pastMessageHistory', label: 'Past message history', kind: 'text', required: false },
    { name: 'tools', label: 'Tools', kind: 'tools', required: false },
    { name: 'temperature', label: 'Temperature', kind: 'number', required: false, min: 0, max: 2 },
    {
      name: 'max_iterations',
      label: 'Maximum steps',
      kind: 'number',
      required: false,
      min: 1,
      max: 50,
      help: 'Model calls allowed before the agent gives up.',
    },
  ],
  outputs: ['response', 'steps'],
});
