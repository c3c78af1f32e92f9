import type { Impl } from './shared';
import { toolName } from './tool-name';

/** A text an agent can read by calling the tool; as a step it simply gives the text. */
export const textTool: Impl<'text_tool'> = {
  run: ({ fields }) => ({ content: fields.content }),
  tools: ({ fields, nodeId }) => [
    {
      nodeId,
      definition: {
        name: toolName(fields.name, 'read_text'),
        description: fields.description || `Gives the text "${fields.name}".`,
        parameters: { type: 'object', properties: {} },
      },
      invoke: async () => fields.content,
    },
  ],
};
