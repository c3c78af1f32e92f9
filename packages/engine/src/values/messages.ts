import type { ChatMessage, ContentPart } from '@atelier/providers';
import { NodeInputError } from '../errors';
import { isRecord } from './files';

const ROLES = new Set(['user', 'assistant', 'system']);

function toParts(content: unknown, index: number): string | ContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new NodeInputError(`Message ${index + 1} has no content.`);
  return content.map((part): ContentPart => {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') {
      return { type: 'text', text: part.text };
    }
    if (isRecord(part) && part.type === 'image' && typeof part.url === 'string')
      return { type: 'image', url: part.url };
    if (
      isRecord(part) &&
      part.type === 'image_url' &&
      isRecord(part.image_url) &&
      typeof part.image_url.url === 'string'
    ) {
      return { type: 'image', url: part.image_url.url };
    }
    throw new NodeInputError(`Message ${index + 1} holds a part that is neither text nor an image.`);
  });
}

const textOf = (content: string | ContentPart[]): string =>
  typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('');

/**
 * A conversation from a ChatMessage[] value: role and content (text, or a list of text and image parts,
 * as the chat history stores them). JSON text is parsed; nothing gives an empty list.
 */
export function toChatMessages(value: unknown): ChatMessage[] {
  if (value === null || value === undefined || value === '') return [];
  let list: unknown = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value) as unknown;
    } catch {
      throw new NodeInputError('The message history is not a list of messages.');
    }
  }
  if (!Array.isArray(list)) throw new NodeInputError('The message history is not a list of messages.');
  return list.map((m, i): ChatMessage => {
    if (!isRecord(m) || typeof m.role !== 'string' || !ROLES.has(m.role)) {
      throw new NodeInputError(`Message ${i + 1} needs a role of user, assistant or system.`);
    }
    const content = toParts(m.content, i);
    if (m.role === 'user') return { role: 'user', content };
    if (m.role === 'assistant') return { role: 'assistant', content: textOf(content) };
    return { role: 'system', content: textOf(content) };
  });
}
