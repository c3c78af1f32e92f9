/** The types of a flow's input fields (the chat interface asks for them). */
export const inputFieldTypes = [
  'string',
  'number',
  'boolean',
  'object',
  'string[]',
  'number[]',
  'object[]',
  'ChatMessage[]',
  'image',
  'image[]',
  'audio',
  'audio[]',
  'pdf',
  'pptx',
  'markdown',
  'csv',
  'json',
  'docx',
  'odt',
] as const;
export type InputFieldType = (typeof inputFieldTypes)[number];

/** The last line of a chat stream: `data: [DONE]`. */
export const STREAM_DONE = '[DONE]';
/** A heartbeat is sent every 15 seconds while nothing else is. */
export const HEARTBEAT_MS = 15_000;
